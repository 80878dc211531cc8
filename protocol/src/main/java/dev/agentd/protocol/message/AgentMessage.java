package dev.agentd.protocol.message;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.WireType;
import dev.agentd.protocol.json.WireTypes;
import java.util.List;

/**
 * A message of the agent's context, discriminated by {@code role} (pi's AgentMessage).
 * Timestamps are epoch milliseconds.
 */
@JsonPropertyOrder({"role"})
public sealed interface AgentMessage {

    @JsonProperty("role")
    default String role() {
        return WireTypes.nameOf(getClass());
    }

    long timestamp();

    /** A user turn. Accepts pi's string form of {@code content} and always writes the array form. */
    @WireType("user")
    record User(@JsonDeserialize(using = UserContentDeserializer.class) List<ContentBlock> content, long timestamp)
            implements AgentMessage {
        public User {
            content = content == null ? List.of() : List.copyOf(content);
        }

        /** Concatenated text blocks. */
        public String text() {
            return ContentBlocks.text(content);
        }
    }

    /**
     * An assistant reply. {@code errorStatus}, {@code errorType}, {@code retryAfterMs} and
     * {@code shouldRetry} are agentd additions on failed replies (HTTP status, provider error type or
     * code, server retry hint, the provider's explicit retry verdict when it gave one).
     * {@code responseModel} (pi 1.x): the model the provider said answered, when it named one other
     * than {@code model} (Anthropic's {@code message.model}, an OpenAI chunk's {@code model}).
     */
    @WireType("assistant")
    record Assistant(
            List<ContentBlock> content,
            String api,
            String provider,
            String model,
            Usage usage,
            StopReason stopReason,
            String errorMessage,
            long timestamp,
            Integer errorStatus,
            String errorType,
            Long retryAfterMs,
            Boolean shouldRetry,
            String responseModel) implements AgentMessage {
        public Assistant {
            content = content == null ? List.of() : List.copyOf(content);
            if (usage == null) {
                usage = Usage.ZERO;
            }
            if (stopReason == null) {
                stopReason = StopReason.STOP;
            }
        }

        /** A reply without {@code responseModel}. */
        public Assistant(List<ContentBlock> content, String api, String provider, String model, Usage usage,
                StopReason stopReason, String errorMessage, long timestamp, Integer errorStatus, String errorType,
                Long retryAfterMs, Boolean shouldRetry) {
            this(content, api, provider, model, usage, stopReason, errorMessage, timestamp, errorStatus, errorType,
                    retryAfterMs, shouldRetry, null);
        }

        /** A reply without the structured error fields. */
        public Assistant(List<ContentBlock> content, String api, String provider, String model, Usage usage,
                StopReason stopReason, String errorMessage, long timestamp) {
            this(content, api, provider, model, usage, stopReason, errorMessage, timestamp, null, null, null, null,
                    null);
        }

        /** Concatenated text blocks. */
        public String text() {
            return ContentBlocks.text(content);
        }

        /** The tool calls of this reply, in order. */
        public List<ContentBlock.ToolCall> toolCalls() {
            return content.stream()
                    .filter(ContentBlock.ToolCall.class::isInstance)
                    .map(ContentBlock.ToolCall.class::cast)
                    .toList();
        }
    }

    /** The result of one tool call. */
    @WireType("toolResult")
    record ToolResult(
            String toolCallId,
            String toolName,
            List<ContentBlock> content,
            JsonNode details,
            boolean isError,
            long timestamp) implements AgentMessage {
        public ToolResult {
            content = content == null ? List.of() : List.copyOf(content);
        }
    }

    /** Output of the RPC {@code bash} command; enters the next prompt's context as user text. */
    @WireType("bashExecution")
    record BashExecution(
            String command,
            String output,
            Integer exitCode,
            boolean cancelled,
            boolean truncated,
            String fullOutputPath,
            Boolean excludeFromContext,
            long timestamp) implements AgentMessage {}

    /** The summary that replaces compacted history. */
    @WireType("compactionSummary")
    record CompactionSummary(String summary, long tokensBefore, long timestamp) implements AgentMessage {}

    /** The summary of an abandoned branch. */
    @WireType("branchSummary")
    record BranchSummary(String summary, String fromId, long timestamp) implements AgentMessage {}

    /** An extension's message. */
    @WireType("custom")
    record Custom(String customType, JsonNode content, boolean display, JsonNode details, long timestamp)
            implements AgentMessage {}

    /** A role this version does not know; its JSON is kept and written back unchanged. */
    record Unknown(@JsonValue ObjectNode json) implements AgentMessage {
        @Override
        public String role() {
            JsonNode role = json.get("role");
            return role == null ? null : role.asText();
        }

        @Override
        public long timestamp() {
            return json.path("timestamp").asLong();
        }
    }
}
