package dev.agentd.server.compaction;

import dev.agentd.protocol.message.AgentMessage;
import java.util.List;

/**
 * Where to cut a context for compaction, by pi 1.6's rule: walk back from the newest message adding
 * up estimated tokens; at the message where the sum reaches {@code keepRecentTokens}, keep from the
 * nearest valid start at or after it (the last valid start when none follows). A valid start is a
 * user, assistant or bash message — never a tool result, so a tool call and its result are never
 * separated.
 */
public final class CutPoint {
    private CutPoint() {}

    /**
     * The index of the first message to keep, or -1 when there is nothing to compact. {@code first}
     * is the index of the first message that may be summarized (after a previous summary). When the
     * kept window holds everything (a short history) the whole history is kept beside the summary,
     * as pi 0.73.1 does (SPEC §8.2); -1 when no valid start exists, or when the history is one
     * prompt's turn (no user message after {@code first}): a summary would then add nothing.
     */
    public static int find(List<AgentMessage> messages, int first, long keepRecentTokens) {
        int cut = windowCut(messages, first, keepRecentTokens);
        if (cut < 0) {
            cut = nextStart(messages, first);
        }
        if (cut < 0 || cut == first && !hasUserAfter(messages, first)) {
            return -1;
        }
        return cut;
    }

    /** pi's walk: the cut that keeps about {@code keepRecentTokens}, or -1 when that window holds everything. */
    private static int windowCut(List<AgentMessage> messages, int first, long keepRecentTokens) {
        long kept = 0;
        for (int i = messages.size() - 1; i >= first; i--) {
            long tokens = TokenEstimate.of(messages.get(i));
            if (tokens == 0) {
                continue; // a message without content (a failed reply) does not count, as in pi
            }
            kept += tokens;
            if (kept >= keepRecentTokens) {
                int next = nextStart(messages, i);
                return next >= 0 ? next : lastStart(messages, first);
            }
        }
        return -1;
    }

    private static int nextStart(List<AgentMessage> messages, int from) {
        for (int i = Math.max(0, from); i < messages.size(); i++) {
            if (canStartAt(messages.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static int lastStart(List<AgentMessage> messages, int first) {
        for (int i = messages.size() - 1; i >= first; i--) {
            if (canStartAt(messages.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean hasUserAfter(List<AgentMessage> messages, int first) {
        for (int i = first + 1; i < messages.size(); i++) {
            if (messages.get(i) instanceof AgentMessage.User) {
                return true;
            }
        }
        return false;
    }

    private static boolean canStartAt(AgentMessage message) {
        return message instanceof AgentMessage.User || message instanceof AgentMessage.Assistant
                || message instanceof AgentMessage.BashExecution;
    }
}
