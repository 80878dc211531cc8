package dev.agentd.protocol.response;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.ThinkingLevel;

/**
 * {@code get_state} data: pi's RpcSessionState plus {@code autoRetryEnabled}, {@code isRetrying}
 * and {@code retryAttempt}. {@code isStreaming} is false during a retry backoff; {@code isRetrying}
 * is true from the first {@code auto_retry_start} of a chain until its {@code auto_retry_end}.
 */
public record SessionState(
        Model model,
        ThinkingLevel thinkingLevel,
        boolean isStreaming,
        boolean isCompacting,
        QueueMode steeringMode,
        QueueMode followUpMode,
        String sessionFile,
        String sessionId,
        String sessionName,
        boolean autoCompactionEnabled,
        int messageCount,
        int pendingMessageCount,
        boolean autoRetryEnabled,
        boolean isRetrying,
        int retryAttempt) {}
