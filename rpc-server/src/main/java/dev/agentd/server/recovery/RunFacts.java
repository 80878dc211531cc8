package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.compaction.CompactionConfig;

/**
 * What the recovery policy needs to know about a finished run: one snapshot, read once per
 * decision, so the policy is a function of this record alone.
 *
 * @param lastAssistant the run's last assistant message, or null when none was produced
 * @param chainAttempt the open retry chain's attempt (0 when no chain is open)
 * @param retrySuppressed the user cancelled the chain while this attempt was streaming
 * @param contextWindow the current model's context window (silent-overflow detection)
 * @param contextTokens the estimated size of the context now (threshold compaction)
 * @param overflowRecoveryAttempted an overflow was already compacted for the current user message
 * @param otherCredentialFree another credential of the current provider is not blocked for this
 *     session (a usage limit then switches to it at once, SPEC §5.6)
 * @param fallback the model-fallback view ({@link FallbackView#NONE} without chains)
 * @param rateLimitWait the chain's in-turn 429 wait state ({@link RateLimitWait#NONE} when none)
 * @param hintLimits the 429 tier boundaries (FALLBACK §4)
 * @param nowMs the monotonic clock now (tier-1 deadlines are measured on it)
 * @param jitterFraction in [0, 1): drawn once per decision from the session's random source, it
 *     scales the wait's jitter ({@link RetryConfig#jittered})
 * @param resumeAtResetMaxMs the longest known reset waited for instead of failing
 *     ({@code retry.resumeAtResetMaxMs}; 0: never, see {@link ResetWait})
 */
public record RunFacts(
        AgentMessage.Assistant lastAssistant,
        int chainAttempt,
        RetryConfig config,
        boolean retrySuppressed,
        long contextWindow,
        CompactionConfig compaction,
        long contextTokens,
        boolean overflowRecoveryAttempted,
        boolean otherCredentialFree,
        FallbackView fallback,
        RateLimitWait rateLimitWait,
        HintTiers.Limits hintLimits,
        long nowMs,
        double jitterFraction,
        long resumeAtResetMaxMs) {

    public RunFacts {
        fallback = fallback == null ? FallbackView.NONE : fallback;
        rateLimitWait = rateLimitWait == null ? RateLimitWait.NONE : rateLimitWait;
        hintLimits = hintLimits == null ? HintTiers.Limits.DEFAULTS : hintLimits;
    }

    /** Without jitter and without resuming at a reset (tests of the rest of the policy). */
    public RunFacts(AgentMessage.Assistant lastAssistant, int chainAttempt, RetryConfig config, boolean retrySuppressed,
            long contextWindow, CompactionConfig compaction, long contextTokens, boolean overflowRecoveryAttempted,
            boolean otherCredentialFree, FallbackView fallback, RateLimitWait rateLimitWait,
            HintTiers.Limits hintLimits, long nowMs) {
        this(lastAssistant, chainAttempt, config, retrySuppressed, contextWindow, compaction, contextTokens,
                overflowRecoveryAttempted, otherCredentialFree, fallback, rateLimitWait, hintLimits, nowMs, 0, 0);
    }

    /** {@code delayMs} with this decision's jitter. */
    long jittered(long delayMs) {
        return config.jittered(delayMs, jitterFraction);
    }
}
