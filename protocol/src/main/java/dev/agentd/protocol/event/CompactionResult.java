package dev.agentd.protocol.event;

import com.fasterxml.jackson.databind.JsonNode;

/** The outcome of one compaction: the summary and the first entry kept verbatim. */
public record CompactionResult(String summary, String firstKeptEntryId, long tokensBefore, JsonNode details) {}
