package dev.agentd.protocol.message;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.WireType;
import dev.agentd.protocol.json.WireTypes;

/** A block of message content, discriminated by {@code type}. */
@JsonPropertyOrder({"type"})
public sealed interface ContentBlock {

    @JsonProperty("type")
    default String type() {
        return WireTypes.nameOf(getClass());
    }

    /** Plain text. */
    @WireType("text")
    record Text(String text, String textSignature) implements ContentBlock {
        public Text(String text) {
            this(text, null);
        }
    }

    /** Model reasoning; {@code redacted} blocks carry an opaque payload in the signature. */
    @WireType("thinking")
    record Thinking(String thinking, String thinkingSignature, Boolean redacted) implements ContentBlock {
        public Thinking(String thinking) {
            this(thinking, null, null);
        }
    }

    /** A base64 image. */
    @WireType("image")
    record Image(String data, String mimeType) implements ContentBlock {}

    /** A call the model asks a tool to make; {@code arguments} is a JSON object. */
    @WireType("toolCall")
    record ToolCall(String id, String name, JsonNode arguments, String thoughtSignature) implements ContentBlock {
        public ToolCall(String id, String name, JsonNode arguments) {
            this(id, name, arguments, null);
        }
    }

    /** A block type this version does not know; its JSON is kept and written back unchanged. */
    record Unknown(@JsonValue ObjectNode json) implements ContentBlock {
        @Override
        public String type() {
            JsonNode type = json.get("type");
            return type == null ? null : type.asText();
        }
    }
}
