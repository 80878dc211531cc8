package dev.agentd.protocol.response;

/** {@code get_session_stats} data, counted over the in-memory context. */
public record SessionStats(
        String sessionFile,
        String sessionId,
        int userMessages,
        int assistantMessages,
        int toolCalls,
        int toolResults,
        int totalMessages,
        Tokens tokens,
        double cost) {

    public record Tokens(long input, long output, long cacheRead, long cacheWrite, long total) {}
}
