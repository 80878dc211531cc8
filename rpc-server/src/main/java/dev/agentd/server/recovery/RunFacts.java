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
        FallbackView fallback) {

    public RunFacts {
        fallback = fallback == null ? FallbackView.NONE : fallback;
    }

    /** Facts without model fallback. */
    public RunFacts(AgentMessage.Assistant lastAssistant, int chainAttempt, RetryConfig config,
            boolean retrySuppressed, long contextWindow, CompactionConfig compaction, long contextTokens,
            boolean overflowRecoveryAttempted, boolean otherCredentialFree) {
        this(lastAssistant, chainAttempt, config, retrySuppressed, contextWindow, compaction, contextTokens,
                overflowRecoveryAttempted, otherCredentialFree, FallbackView.NONE);
    }

    /** Facts without compaction (it disabled, context empty) and without a free credential. */
    public RunFacts(AgentMessage.Assistant lastAssistant, int chainAttempt, RetryConfig config,
            boolean retrySuppressed, long contextWindow) {
        this(lastAssistant, chainAttempt, config, retrySuppressed, contextWindow,
                new CompactionConfig(false, 0, 0), 0, false, false);
    }

    /** The same facts with {@code otherCredentialFree} set. */
    public RunFacts withOtherCredentialFree(boolean free) {
        return new RunFacts(lastAssistant, chainAttempt, config, retrySuppressed, contextWindow, compaction,
                contextTokens, overflowRecoveryAttempted, free, fallback);
    }

    /** The same facts with the fallback view {@code view}. */
    public RunFacts withFallback(FallbackView view) {
        return new RunFacts(lastAssistant, chainAttempt, config, retrySuppressed, contextWindow, compaction,
                contextTokens, overflowRecoveryAttempted, otherCredentialFree, view);
    }
}
