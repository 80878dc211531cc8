package dev.agentd.server.sessionfile;

import dev.agentd.protocol.message.AgentMessage;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a branch of entries into the agent's working context (SPEC §7): the latest compaction on
 * the path replaces the entries before its first kept entry with its summary.
 */
final class ContextBuilder {
    private ContextBuilder() {}

    static List<AgentMessage> build(List<SessionEntry> branch) {
        int compactionIndex = -1;
        for (int i = branch.size() - 1; i >= 0; i--) {
            if (branch.get(i) instanceof SessionEntry.Compaction) {
                compactionIndex = i;
                break;
            }
        }
        List<AgentMessage> messages = new ArrayList<>();
        if (compactionIndex < 0) {
            addMessages(branch, 0, branch.size(), messages);
            return messages;
        }
        SessionEntry.Compaction compaction = (SessionEntry.Compaction) branch.get(compactionIndex);
        messages.add(new AgentMessage.CompactionSummary(compaction.summary(), compaction.tokensBefore(),
                epochMillis(compaction.timestamp())));
        int firstKept = compactionIndex;
        for (int i = 0; i < compactionIndex; i++) {
            if (branch.get(i).id() != null && branch.get(i).id().equals(compaction.firstKeptEntryId())) {
                firstKept = i;
                break;
            }
        }
        addMessages(branch, firstKept, compactionIndex, messages);
        addMessages(branch, compactionIndex + 1, branch.size(), messages);
        return messages;
    }

    /**
     * The whole conversation on a branch as it happened, for a transcript ({@code session/load}):
     * every message, compacted ones included, with each compaction's summary where it was made.
     */
    static List<AgentMessage> transcript(List<SessionEntry> branch) {
        List<AgentMessage> messages = new ArrayList<>();
        for (SessionEntry entry : branch) {
            if (entry instanceof SessionEntry.Message message) {
                messages.add(message.message());
            } else if (entry instanceof SessionEntry.Compaction compaction) {
                messages.add(new AgentMessage.CompactionSummary(compaction.summary(), compaction.tokensBefore(),
                        epochMillis(compaction.timestamp())));
            }
        }
        return messages;
    }

    private static void addMessages(List<SessionEntry> branch, int from, int to, List<AgentMessage> out) {
        for (int i = from; i < to; i++) {
            if (branch.get(i) instanceof SessionEntry.Message message) {
                out.add(message.message());
            }
        }
    }

    static long epochMillis(String iso) {
        try {
            return iso == null ? 0 : Instant.parse(iso).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0;
        }
    }
}
