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
        double cost,
        ContextUsage contextUsage) {

    public SessionStats(String sessionFile, String sessionId, int userMessages, int assistantMessages, int toolCalls,
            int toolResults, int totalMessages, Tokens tokens, double cost) {
        this(sessionFile, sessionId, userMessages, assistantMessages, toolCalls, toolResults, totalMessages, tokens,
                cost, null);
    }

    public record Tokens(long input, long output, long cacheRead, long cacheWrite, long total) {}

    /** How full the model's context window is (pi 0.73); {@code tokens}/{@code percent} null when unknown. */
    public record ContextUsage(Long tokens, long contextWindow, Double percent) {}
}
