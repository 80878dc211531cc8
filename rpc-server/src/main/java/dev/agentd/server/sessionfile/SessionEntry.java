package dev.agentd.server.sessionfile;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.WireType;
import dev.agentd.protocol.json.WireTypes;
import dev.agentd.protocol.message.AgentMessage;

/**
 * One line of a session file after the header (pi's version-3 format, SPEC §7). Every entry
 * has an 8-hex {@code id}, the {@code parentId} of the entry it follows in the tree (null for the
 * first) and an ISO-8601 {@code timestamp}. Unknown entry types are kept verbatim.
 */
@JsonPropertyOrder({"type", "id", "parentId", "timestamp"})
public sealed interface SessionEntry {

    @JsonProperty("type")
    default String type() {
        return WireTypes.nameOf(getClass());
    }

    String id();

    String parentId();

    String timestamp();

    /** A message of the conversation (user, assistant — failed ones included — toolResult, bashExecution). */
    @WireType("message")
    record Message(String id, @JsonInclude(JsonInclude.Include.ALWAYS) String parentId, String timestamp,
            AgentMessage message) implements SessionEntry {}

    /**
     * The model changed. {@code reason} is absent for a user's choice or a resume (pi writes only
     * {@code provider} and {@code modelId}) and {@code fallback} / {@code fallback-revert} for
     * automatic switches, which also name the original model: the one the fallback episode started
     * from, to which a resume returns (FALLBACK §5.6).
     */
    @WireType("model_change")
    record ModelChange(String id, @JsonInclude(JsonInclude.Include.ALWAYS) String parentId, String timestamp,
            String provider, String modelId, String reason, String originalProvider, String originalModelId)
            implements SessionEntry {}

    @WireType("thinking_level_change")
    record ThinkingLevelChange(String id, @JsonInclude(JsonInclude.Include.ALWAYS) String parentId,
            String timestamp, String thinkingLevel) implements SessionEntry {}

    /** Everything before {@code firstKeptEntryId} on the path is replaced by {@code summary}. */
    @WireType("compaction")
    record Compaction(String id, @JsonInclude(JsonInclude.Include.ALWAYS) String parentId, String timestamp,
            String summary, String firstKeptEntryId, long tokensBefore, JsonNode details) implements SessionEntry {}

    @WireType("session_info")
    record SessionInfo(String id, @JsonInclude(JsonInclude.Include.ALWAYS) String parentId, String timestamp,
            String name) implements SessionEntry {}

    /** An entry type this version does not know; written back unchanged. */
    record Unknown(@JsonValue ObjectNode json) implements SessionEntry {
        @Override
        public String type() {
            return json.path("type").asText(null);
        }

        @Override
        public String id() {
            return json.path("id").asText(null);
        }

        @Override
        public String parentId() {
            JsonNode parent = json.get("parentId");
            return parent == null || parent.isNull() ? null : parent.asText();
        }

        @Override
        public String timestamp() {
            return json.path("timestamp").asText(null);
        }
    }
}
