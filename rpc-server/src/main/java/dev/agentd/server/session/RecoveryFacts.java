package dev.agentd.server.session;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.auth.AuthStore;
import dev.agentd.server.fallback.control.FallbackSwitch;
import dev.agentd.server.recovery.RunFacts;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The session as the recovery decision sees it: builds one {@link RunFacts} snapshot per decision
 * (settings, model and credentials read once, so the decision and its carrying-out agree), and
 * the one write the decision may ask for — blocking the credential in use. The fallback view
 * comes from the session's {@link FallbackSwitch}.
 */
final class RecoveryFacts {
    private final SettingsControl settings;
    private final ModelControl models;
    private final AuthStore auth;
    private final Supplier<String> sessionId;
    private final FallbackSwitch fallback;
    private final RandomGenerator random;

    /** @param random the session's one source of randomness: each decision draws its jitter from it */
    RecoveryFacts(SettingsControl settings, ModelControl models, AuthStore auth, Supplier<String> sessionId,
            FallbackSwitch fallback, RandomGenerator random) {
        this.random = random;
        this.settings = settings;
        this.models = models;
        this.auth = auth;
        this.sessionId = sessionId;
        this.fallback = fallback;
    }

    /** {@code retry.keepPartial}: a retry keeps what a cut stream delivered. */
    boolean keepPartial() {
        return settings.keepPartial();
    }

    /** Whether requests think now: Anthropic refuses a prefill then (SPEC §5.9). */
    boolean thinking() {
        return models.current().reasoning() && models.thinkingLevel() != ThinkingLevel.OFF;
    }

    /** The facts of a run that ended with {@code last} (null when it produced no reply). */
    RunFacts snapshot(AgentMessage.Assistant last, RunControl.ChainState chain, long contextTokens,
            boolean overflowRecoveryAttempted) {
        Model model = models.current();
        return new RunFacts(last, chain.attempt(), settings.retry(), chain.retrySuppressed(), model.contextWindow(),
                settings.compaction(), contextTokens, overflowRecoveryAttempted,
                auth.otherCredentialFree(model.provider(), sessionId.get()), fallback.view(), chain.rateLimitWait(),
                fallback.hintLimits(), fallback.monotonicMs(), random.nextDouble(),
                settings.resumeAtResetMaxMs());
    }

    /** The current model as {@code provider/id} (the selector a resume at reset waits for). */
    String selector() {
        return models.current().selector();
    }

    /** The current model's context window (for overflow checks outside a decision). */
    long contextWindow() {
        return models.current().contextWindow();
    }

    /** Blocks the session's current credential of the current provider (SPEC §5.6). */
    void blockCredentialInUse(Long retryAfterMs) {
        auth.markUsageLimitReached(models.current().provider(), sessionId.get(), retryAfterMs);
    }
}
