package dev.agentd.server.recovery;

import java.util.Optional;

/**
 * Model fallback as the end-of-run decision sees it (FALLBACK §3, §5): built once per decision by
 * the session's fallback switch, so the policy stays a function of {@link RunFacts}. It names the
 * rung a switch would take for each kind of failure, and the decision carries that rung in
 * {@link RecoveryAction.SwitchModel#to()}: the carrying-out never searches again.
 *
 * @param enabled switching is on ({@code retry.modelFallback}, not disabled for the run)
 * @param chainKey the canonical chain governing the current model (its own, else the episode's);
 *     null when the model never falls back — then the wire is exactly the plain retry contract
 * @param next the rung for an ordinary failure (tried, cooling and unauthenticated rungs
 *     excluded); null when none is usable now
 * @param nextOffProvider the rung once the current provider is skipped (a rejected credential
 *     skips every rung of its provider for the turn)
 * @param nextOffAccount the rung once the current provider's account is spent (its rungs rank
 *     after every other provider's)
 * @param episodeActive the session is on a fallback (a success then reports {@code retry_fallback_succeeded})
 * @param probing the session holds the current model's half-open circuit probe: a transient
 *     failure switches after that one request (FALLBACK §6)
 */
public record FallbackView(boolean enabled, String chainKey, Candidate next, Candidate nextOffProvider,
        Candidate nextOffAccount, boolean episodeActive, boolean probing) {

    /** No fallback: the plain retry contract. */
    public static final FallbackView NONE = new FallbackView(false, null, null, null, null, false, false);

    /** The rung a switch for {@code classification} takes, if switching is on and one is left. */
    public Optional<Candidate> target(Classification classification) {
        if (!enabled) {
            return Optional.empty();
        }
        if (classification.errorClass() == ErrorClass.CREDENTIAL_REJECTED) {
            return Optional.ofNullable(nextOffProvider);
        }
        return Optional.ofNullable(classification.scope() == LimitScope.ACCOUNT ? nextOffAccount : next);
    }

    /** Whether a switch for {@code classification} has somewhere to go. */
    public boolean canSwitch(Classification classification) {
        return target(classification).isPresent();
    }

    /** Whether a wanted switch with nowhere to go exhausts a configured chain. */
    public boolean exhausts() {
        return enabled && chainKey != null;
    }
}
