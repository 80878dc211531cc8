package dev.agentd.server.recovery;

/**
 * Model fallback as the end-of-run decision sees it (FALLBACK §3, §5): read once per decision by
 * the session's fallback controller, so the policy stays a function of {@link RunFacts}.
 *
 * @param enabled switching is on ({@code retry.modelFallback}, not disabled for the run)
 * @param chainKey the canonical chain governing the current model (its own, else the episode's);
 *     null when the model never falls back — then the wire is exactly the plain retry contract
 * @param candidate a usable rung exists now (tried, cooling and unauthenticated rungs excluded)
 * @param candidateOnOtherProvider such a rung exists on another provider than the current one (a
 *     rejected credential skips every rung of its provider for the turn)
 * @param episodeActive the session is on a fallback (a success then reports {@code retry_fallback_succeeded})
 * @param probing the session holds the current model's half-open circuit probe: a transient
 *     failure switches after that one request (FALLBACK §6)
 */
public record FallbackView(boolean enabled, String chainKey, boolean candidate, boolean candidateOnOtherProvider,
        boolean episodeActive, boolean probing) {

    /** No fallback: the plain retry contract. */
    public static final FallbackView NONE = new FallbackView(false, null, false, false, false);

    /** Not probing a circuit. */
    public FallbackView(boolean enabled, String chainKey, boolean candidate, boolean candidateOnOtherProvider,
            boolean episodeActive) {
        this(enabled, chainKey, candidate, candidateOnOtherProvider, episodeActive, false);
    }

    /** Whether a switch for an error of {@code errorClass} has somewhere to go. */
    public boolean canSwitch(ErrorClass errorClass) {
        if (!enabled) {
            return false;
        }
        return errorClass == ErrorClass.CREDENTIAL_REJECTED ? candidateOnOtherProvider : candidate;
    }

    /** Whether a wanted switch with nowhere to go exhausts a configured chain. */
    public boolean exhausts() {
        return enabled && chainKey != null;
    }
}
