package dev.agentd.server.session;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.response.SessionStats;
import dev.agentd.server.compaction.TokenEstimate;
import java.util.List;

/** {@code get_session_stats}: counts and token totals over the in-memory context (as pi does). */
final class Stats {
    private Stats() {}

    static SessionStats of(List<AgentMessage> messages, String sessionFile, String sessionId, long contextWindow) {
        int users = 0;
        int assistants = 0;
        int toolCalls = 0;
        int toolResults = 0;
        long input = 0;
        long output = 0;
        long cacheRead = 0;
        long cacheWrite = 0;
        double cost = 0;
        for (AgentMessage message : messages) {
            if (message instanceof AgentMessage.User) {
                users++;
            } else if (message instanceof AgentMessage.Assistant reply) {
                assistants++;
                toolCalls += reply.toolCalls().size();
                Usage usage = reply.usage();
                input += usage.input();
                output += usage.output();
                cacheRead += usage.cacheRead();
                cacheWrite += usage.cacheWrite();
                cost += usage.cost().total();
            } else if (message instanceof AgentMessage.ToolResult) {
                toolResults++;
            }
        }
        return new SessionStats(sessionFile, sessionId, users, assistants, toolCalls, toolResults, messages.size(),
                new SessionStats.Tokens(input, output, cacheRead, cacheWrite, input + output + cacheRead + cacheWrite),
                cost, contextUsage(messages, contextWindow));
    }

    /** pi 0.73's {@code contextUsage}: the estimated context size against the current model's window. */
    static SessionStats.ContextUsage contextUsage(List<AgentMessage> messages, long contextWindow) {
        long tokens = TokenEstimate.contextTokens(messages);
        Double percent = contextWindow > 0 ? tokens * 100.0 / contextWindow : null;
        return new SessionStats.ContextUsage(tokens, contextWindow, percent);
    }
}
