package dev.agentd.server.compaction;

import dev.agentd.protocol.message.AgentMessage;
import java.util.List;

/**
 * Where to cut a context for compaction: keep roughly {@code keepRecentTokens} of the newest
 * messages, starting at a user, assistant or bash message — never at a tool result, so a tool call
 * and its result are never separated.
 */
public final class CutPoint {
    private CutPoint() {}

    /**
     * The index of the first message to keep, or -1 when there is nothing before it to summarize.
     * {@code first} is the index of the first message that may be summarized (after a previous
     * summary).
     */
    public static int find(List<AgentMessage> messages, int first, long keepRecentTokens) {
        if (messages.size() - first < 2) {
            return -1;
        }
        long kept = 0;
        int cut = messages.size();
        while (cut > first && kept < keepRecentTokens) {
            cut--;
            kept += TokenEstimate.of(messages.get(cut));
        }
        if (cut == messages.size()) {
            cut--; // keep at least the newest message
        }
        while (cut > first && !canStartAt(messages.get(cut))) {
            cut--;
        }
        return cut > first && canStartAt(messages.get(cut)) ? cut : -1;
    }

    private static boolean canStartAt(AgentMessage message) {
        return message instanceof AgentMessage.User || message instanceof AgentMessage.Assistant
                || message instanceof AgentMessage.BashExecution;
    }
}
