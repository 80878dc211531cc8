package dev.agentd.server.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.compaction.CompactionConfig;
import dev.agentd.server.compaction.CompactionException;
import dev.agentd.server.compaction.CutPoint;
import dev.agentd.server.compaction.FileOps;
import dev.agentd.server.compaction.Summarizer;
import dev.agentd.server.compaction.TokenEstimate;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.sessionfile.SessionEntry;
import dev.agentd.server.sessionfile.SessionFile;
import java.util.ArrayList;
import java.util.List;

/**
 * Compacts the current branch of the session file: summarizes the messages before the cut point
 * (with the previous summary, if any) and appends a {@code compaction} entry keeping the recent
 * messages from the cut on. The caller rebuilds the working context from the file. A manual
 * compaction that finds no cut summarizes everything, so {@code compact} succeeds on any
 * non-empty session (SPEC §8.2).
 */
final class Compactor {
    private final SummaryRetries summaries;

    Compactor(SummaryRetries summaries) {
        this.summaries = summaries;
    }

    /**
     * @param reason manual, threshold or overflow: named by a retried summary request's events
     * @param summarizeAll when no cut is found, summarize every message (manual compaction)
     */
    CompactionResult compact(SessionFile file, CompactionConfig config, String reason, String customInstructions,
            boolean summarizeAll, CancellationToken cancel) throws CompactionException {
        Summarizer summarizer = new Summarizer(summaries.forCompaction(reason));
        List<SessionEntry> branch = file.branch();
        int previous = -1;
        for (int i = branch.size() - 1; i >= 0 && previous < 0; i--) {
            if (branch.get(i) instanceof SessionEntry.Compaction) {
                previous = i;
            }
        }
        String previousSummary = null;
        JsonNode previousDetails = null;
        int start = 0;
        if (previous >= 0) {
            SessionEntry.Compaction last = (SessionEntry.Compaction) branch.get(previous);
            previousSummary = last.summary();
            previousDetails = last.details();
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
        if (cut < 0 && summarizeAll && !messages.isEmpty()) {
            cut = messages.size();
        }
        if (cut < 0) {
            throw CompactionException.nothingToCompact();
        }
        long tokensBefore = TokenEstimate.contextTokens(file.buildContext());
        List<AgentMessage> summarized = messages.subList(0, cut);
        String summary = summarizer.summarize(summarized, previousSummary, customInstructions, cancel);
        // Everything summarized: nothing is kept verbatim, the context restarts from the summary.
        String firstKept = cut < candidates.size() ? candidates.get(cut).id() : null;
        JsonNode details = FileOps.details(summarized, previousDetails);
        file.appendCompaction(summary, firstKept, tokensBefore, details);
        long estimatedAfter = TokenEstimate.messagesTokens(file.buildContext());
        return new CompactionResult(summary, firstKept, tokensBefore, details, estimatedAfter);
    }
}
