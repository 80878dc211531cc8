package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.compaction.CompactionConfig;

/**
 * What the recovery policy needs to know about a finished run.
 *
 * @param lastAssistant the run's last assistant message, or null when none was produced
 * @param chainAttempt the open retry chain's attempt (0 when no chain is open)
 * @param retrySuppressed the user cancelled the chain while this attempt was streaming
 * @param contextWindow the current model's context window (silent-overflow detection)
 * @param contextTokens the estimated size of the context now (threshold compaction)
 * @param overflowRecoveryAttempted an overflow was already compacted for the current user message
 */
public record RunFacts(
        AgentMessage.Assistant lastAssistant,
        int chainAttempt,
        RetryConfig config,
        boolean retrySuppressed,
        long contextWindow,
        CompactionConfig compaction,
        long contextTokens,
        boolean overflowRecoveryAttempted) {

    /** Facts without compaction (it disabled, context empty). */
    public RunFacts(AgentMessage.Assistant lastAssistant, int chainAttempt, RetryConfig config,
            boolean retrySuppressed, long contextWindow) {
        this(lastAssistant, chainAttempt, config, retrySuppressed, contextWindow,
                new CompactionConfig(false, 0, 0), 0, false);
    }
}
