package dev.agentd.server.retry;

import dev.agentd.protocol.message.AgentMessage;

/**
 * What the recovery policy needs to know about a finished run.
 *
 * @param lastAssistant the run's last assistant message, or null when none was produced
 * @param chainAttempt the open retry chain's attempt (0 when no chain is open)
 * @param retrySuppressed the user cancelled the chain while this attempt was streaming
 * @param contextWindow the current model's context window (silent-overflow detection)
 */
public record RunFacts(
        AgentMessage.Assistant lastAssistant,
        int chainAttempt,
        RetryConfig config,
        boolean retrySuppressed,
        long contextWindow) {}
