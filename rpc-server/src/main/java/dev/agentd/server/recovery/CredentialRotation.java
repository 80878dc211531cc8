package dev.agentd.server.recovery;

/** The auth store seen from the retry policy: block the credential in use, report if another is free. */
@FunctionalInterface
public interface CredentialRotation {

    /**
     * Blocks the session's current credential for {@code retryAfterMs} (null = the default).
     *
     * @return true iff another credential of the provider is unblocked and will serve the next request
     */
    boolean markUsageLimitReached(Long retryAfterMs);

    CredentialRotation NONE = retryAfterMs -> false;
}
