package dev.agentd.protocol.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/** Names a JSON value's kind for error messages ("expected a string, got a number"). */
public final class JsonKinds {
    private JsonKinds() {}

    public static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            case NUMBER -> "a number";
            case OBJECT -> "an object";
            case STRING -> "a string";
            default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
