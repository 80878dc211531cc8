package dev.agentd.server.state;

/** Credential usage-limit blocks (SPEC §5.6), keyed by {@link CredentialId}, never by the key. */
public interface CredentialBlocks {
    /** Blocks until now + {@code durationMs}, never shortening a longer block. */
    void block(CredentialId id, long durationMs);

    /** How much longer the credential is blocked; 0 when it is free. */
    long blockedForMs(CredentialId id);
}
