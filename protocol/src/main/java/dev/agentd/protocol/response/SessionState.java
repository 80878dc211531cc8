package dev.agentd.protocol.response;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.List;

/**
 * {@code get_state} data: pi's RpcSessionState plus {@code autoRetryEnabled}, {@code isRetrying}
 * and {@code retryAttempt}. {@code isStreaming} is false during a retry backoff; {@code isRetrying}
 * is true from the first {@code auto_retry_start} of a chain until its {@code auto_retry_end}.
 * {@code warnings} (absent when there are none): the startup configuration problems, as in
 * {@code ready}. {@code rateLimits} (absent when no reply carried any): per selector, what the
 * provider's rate-limit headers said on its latest reply. {@code retry} (absent unless a resume at
 * a limit's reset is pending): see {@link RetryState}.
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
        int retryAttempt,
        List<String> warnings,
        List<McpServerStatus> mcpServers,
        List<RateLimits> rateLimits,
        RetryState retry) {

    /** Without a pending resume. */
    public SessionState(Model model, ThinkingLevel thinkingLevel, boolean isStreaming, boolean isCompacting,
            QueueMode steeringMode, QueueMode followUpMode, String sessionFile, String sessionId, String sessionName,
            boolean autoCompactionEnabled, int messageCount, int pendingMessageCount, boolean autoRetryEnabled,
            boolean isRetrying, int retryAttempt, List<String> warnings, List<McpServerStatus> mcpServers,
            List<RateLimits> rateLimits) {
        this(model, thinkingLevel, isStreaming, isCompacting, steeringMode, followUpMode, sessionFile, sessionId,
                sessionName, autoCompactionEnabled, messageCount, pendingMessageCount, autoRetryEnabled, isRetrying,
                retryAttempt, warnings, mcpServers, rateLimits, null);
    }

    public SessionState {
        warnings = warnings == null || warnings.isEmpty() ? null : List.copyOf(warnings);
        mcpServers = mcpServers == null || mcpServers.isEmpty() ? null : List.copyOf(mcpServers);
        rateLimits = rateLimits == null || rateLimits.isEmpty() ? null : List.copyOf(rateLimits);
    }

    /** Without rate limits. */
    public SessionState(Model model, ThinkingLevel thinkingLevel, boolean isStreaming, boolean isCompacting,
            QueueMode steeringMode, QueueMode followUpMode, String sessionFile, String sessionId, String sessionName,
            boolean autoCompactionEnabled, int messageCount, int pendingMessageCount, boolean autoRetryEnabled,
            boolean isRetrying, int retryAttempt, List<String> warnings, List<McpServerStatus> mcpServers) {
        this(model, thinkingLevel, isStreaming, isCompacting, steeringMode, followUpMode, sessionFile, sessionId,
                sessionName, autoCompactionEnabled, messageCount, pendingMessageCount, autoRetryEnabled, isRetrying,
                retryAttempt, warnings, mcpServers, null);
    }

    /** Without MCP servers. */
    public SessionState(Model model, ThinkingLevel thinkingLevel, boolean isStreaming, boolean isCompacting,
            QueueMode steeringMode, QueueMode followUpMode, String sessionFile, String sessionId, String sessionName,
            boolean autoCompactionEnabled, int messageCount, int pendingMessageCount, boolean autoRetryEnabled,
            boolean isRetrying, int retryAttempt, List<String> warnings) {
        this(model, thinkingLevel, isStreaming, isCompacting, steeringMode, followUpMode, sessionFile, sessionId,
                sessionName, autoCompactionEnabled, messageCount, pendingMessageCount, autoRetryEnabled, isRetrying,
                retryAttempt, warnings, null);
    }

    /** Without warnings. */
    public SessionState(Model model, ThinkingLevel thinkingLevel, boolean isStreaming, boolean isCompacting,
            QueueMode steeringMode, QueueMode followUpMode, String sessionFile, String sessionId, String sessionName,
            boolean autoCompactionEnabled, int messageCount, int pendingMessageCount, boolean autoRetryEnabled,
            boolean isRetrying, int retryAttempt) {
        this(model, thinkingLevel, isStreaming, isCompacting, steeringMode, followUpMode, sessionFile, sessionId,
                sessionName, autoCompactionEnabled, messageCount, pendingMessageCount, autoRetryEnabled, isRetrying,
                retryAttempt, null);
    }

    /** The same state with {@code warnings}. */
    public SessionState withWarnings(List<String> warnings) {
        return new SessionState(model, thinkingLevel, isStreaming, isCompacting, steeringMode, followUpMode,
                sessionFile, sessionId, sessionName, autoCompactionEnabled, messageCount, pendingMessageCount,
                autoRetryEnabled, isRetrying, retryAttempt, warnings, mcpServers, rateLimits, retry);
    }

    /** The same state listing {@code servers}. */
    public SessionState withMcpServers(List<McpServerStatus> servers) {
        return new SessionState(model, thinkingLevel, isStreaming, isCompacting, steeringMode, followUpMode,
                sessionFile, sessionId, sessionName, autoCompactionEnabled, messageCount, pendingMessageCount,
                autoRetryEnabled, isRetrying, retryAttempt, warnings, servers, rateLimits, retry);
    }

    /** The same state with the rate-limit figures of each selector this session called. */
    public SessionState withRateLimits(List<RateLimits> limits) {
        return new SessionState(model, thinkingLevel, isStreaming, isCompacting, steeringMode, followUpMode,
                sessionFile, sessionId, sessionName, autoCompactionEnabled, messageCount, pendingMessageCount,
                autoRetryEnabled, isRetrying, retryAttempt, warnings, mcpServers, limits, retry);
    }

    /** The same state with {@code retry} (null: nothing pending). */
    public SessionState withRetry(RetryState retry) {
        return new SessionState(model, thinkingLevel, isStreaming, isCompacting, steeringMode, followUpMode,
                sessionFile, sessionId, sessionName, autoCompactionEnabled, messageCount, pendingMessageCount,
                autoRetryEnabled, isRetrying, retryAttempt, warnings, mcpServers, rateLimits, retry);
    }
}
