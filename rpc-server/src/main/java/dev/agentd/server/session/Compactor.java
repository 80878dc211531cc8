package dev.agentd.server.session;

import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.compaction.CompactionConfig;
import dev.agentd.server.compaction.CompactionException;
import dev.agentd.server.compaction.CutPoint;
import dev.agentd.server.compaction.Summarizer;
import dev.agentd.server.compaction.TokenEstimate;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.sessions.SessionEntry;
import dev.agentd.server.sessions.SessionFile;
import java.util.ArrayList;
import java.util.List;

/**
 * Compacts the current branch of the session file: summarizes the messages before the cut point
 * (with the previous summary, if any) and appends a {@code compaction} entry keeping the recent
 * messages from the cut on. The caller rebuilds the working context from the file.
 */
final class Compactor {
    private final Summarizer summarizer;

    Compactor(Summarizer summarizer) {
        this.summarizer = summarizer;
    }

    CompactionResult compact(SessionFile file, CompactionConfig config, String customInstructions,
            CancellationToken cancel) throws CompactionException {
        List<SessionEntry> branch = file.branch();
        int previous = -1;
        for (int i = branch.size() - 1; i >= 0 && previous < 0; i--) {
            if (branch.get(i) instanceof SessionEntry.Compaction) {
                previous = i;
            }
        }
        String previousSummary = null;
        int start = 0;
        if (previous >= 0) {
            SessionEntry.Compaction last = (SessionEntry.Compaction) branch.get(previous);
            previousSummary = last.summary();
            start = previous;
            for (int i = 0; i < previous; i++) {
                if (last.firstKeptEntryId() != null && last.firstKeptEntryId().equals(branch.get(i).id())) {
                    start = i;
                    break;
                }
            }
        }
        List<SessionEntry.Message> candidates = new ArrayList<>();
        for (int i = start; i < branch.size(); i++) {
            if (i != previous && branch.get(i) instanceof SessionEntry.Message message) {
                candidates.add(message);
            }
        }
        List<AgentMessage> messages = candidates.stream().map(SessionEntry.Message::message).toList();
        int cut = CutPoint.find(messages, 0, config.keepRecentTokens());
        if (cut < 0) {
            throw CompactionException.nothingToCompact();
        }
        long tokensBefore = TokenEstimate.contextTokens(file.buildContext());
        String summary = summarizer.summarize(messages.subList(0, cut), previousSummary, customInstructions, cancel);
        String firstKept = candidates.get(cut).id();
        file.appendCompaction(summary, firstKept, tokensBefore, null);
        return new CompactionResult(summary, firstKept, tokensBefore, null);
    }
}
