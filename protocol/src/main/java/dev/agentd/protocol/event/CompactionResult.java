package dev.agentd.protocol.event;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The outcome of one compaction: the summary and the first entry kept verbatim.
 * {@code estimatedTokensAfter} (pi 1.6): a heuristic estimate of the rebuilt context right after
 * the compaction (about four characters a token), not a provider's count.
 */
public record CompactionResult(String summary, String firstKeptEntryId, long tokensBefore, JsonNode details,
        long estimatedTokensAfter) {

    /** A result without the estimate (0), as daemons before pi 1.6's field answered. */
    public CompactionResult(String summary, String firstKeptEntryId, long tokensBefore, JsonNode details) {
        this(summary, firstKeptEntryId, tokensBefore, details, 0);
    }
}
