package dev.agentd.server.ai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;

/**
 * What a Responses reply leaves in the session for the next request, in pi's formats: a
 * reasoning item is kept whole as its thinking block's signature (its {@code encrypted_content}
 * is the reasoning itself under {@code store:false}); a message item's id as its text block's
 * signature {@code {"v":1,"id":…,"phase":…}}. Both are read back tolerantly: a signature that
 * is not one of them (another API's, or an edited file) is simply not replayed.
 */
final class ReasoningItems {
    private ReasoningItems() {}

    /** The reasoning item a thinking signature holds, or null. */
    static JsonNode parse(String signature) {
        if (signature == null || !signature.startsWith("{")) {
            return null;
        }
        try {
            JsonNode item = Json.mapper().readTree(signature);
            return item != null && item.isObject() && "reasoning".equals(item.path("type").asText()) ? item : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** The signature of a message item's text (pi's v1 form). */
    static String textSignature(String id, String phase) {
        ObjectNode signature = Json.mapper().createObjectNode().put("v", 1).put("id", id);
        if (phase != null) {
            signature.put("phase", phase);
        }
        return signature.toString();
    }

    /** The message id a text signature names (v1 JSON, or a bare id as older pi wrote), or null. */
    static String messageId(String signature) {
        if (signature == null || signature.isBlank()) {
            return null;
        }
        if (!signature.startsWith("{")) {
            return signature;
        }
        try {
            JsonNode parsed = Json.mapper().readTree(signature);
            JsonNode id = parsed == null ? null : parsed.path("id");
            return id != null && id.isTextual() && !id.textValue().isEmpty() ? id.textValue() : null;
        } catch (Exception e) {
            return null;
        }
    }
}
