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
     * summary). When the kept window would hold everything (a short history, or one huge message)
     * the cut moves forward to the latest user message, so everything before it is summarized
     * (SPEC §8.2, as pi 0.73 does); -1 only when no user message follows {@code first}.
     */
    public static int find(List<AgentMessage> messages, int first, long keepRecentTokens) {
        int cut = windowCut(messages, first, keepRecentTokens);
        if (cut >= 0) {
            return cut;
        }
        for (int i = messages.size() - 1; i > first; i--) {
            if (messages.get(i) instanceof AgentMessage.User) {
                return i;
            }
        }
        return -1;
    }

    /** The cut that keeps about {@code keepRecentTokens}, or -1 when that window holds everything. */
    private static int windowCut(List<AgentMessage> messages, int first, long keepRecentTokens) {
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
