package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Small builders for ACP's JSON shapes (the field names are the ACP v1 schema's). */
final class AcpJson {
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AcpJson() {}

    static ObjectNode object() {
        return F.objectNode();
    }

    static ArrayNode array() {
        return F.arrayNode();
    }

    /** A text content block. */
    static ObjectNode text(String text) {
        return object().put("type", "text").put("text", text);
    }

    /** A {@code session/update} of kind {@code kind}. */
    static ObjectNode update(String kind) {
        return object().put("sessionUpdate", kind);
    }

    /** The text of {@code node.field}, or null when it is absent or not text. */
    static String textOf(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }
}
