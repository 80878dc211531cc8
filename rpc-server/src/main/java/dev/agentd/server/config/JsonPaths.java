package dev.agentd.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Settings key paths as lists of segments, so a segment may itself hold dots, slashes or colons
 * (a fallback chain key such as {@code openai/gpt-4.1:high}). The dotted form is only a shorthand
 * for the fixed keys of SPEC §2.
 */
final class JsonPaths {
    private JsonPaths() {}

    /** {@code "retry.maxRetries"} → {@code [retry, maxRetries]}; split on every dot, no regex. */
    static List<String> dotted(String path) {
        List<String> segments = new ArrayList<>();
        int start = 0;
        for (int dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', start)) {
            segments.add(path.substring(start, dot));
            start = dot + 1;
        }
        segments.add(path.substring(start));
        return List.copyOf(segments);
    }

    /** The node at {@code path}, or empty when absent or JSON null. */
    static Optional<JsonNode> get(JsonNode root, List<String> path) {
        JsonNode node = root;
        for (String segment : requireSegments(path)) {
            node = node == null ? null : node.get(segment);
        }
        return node == null || node.isNull() ? Optional.empty() : Optional.of(node);
    }

    /** Sets {@code path} to {@code value}, creating (or replacing non-object) parents on the way. */
    static void put(ObjectNode root, List<String> path, JsonNode value) {
        parentOf(root, requireSegments(path)).set(path.get(path.size() - 1), value);
    }

    /** Removes the last segment of {@code path}; parents that do not exist are left absent. */
    static void remove(ObjectNode root, List<String> path) {
        JsonNode node = root;
        for (String segment : requireSegments(path).subList(0, path.size() - 1)) {
            node = node.get(segment);
            if (!(node instanceof ObjectNode)) {
                return;
            }
        }
        ((ObjectNode) node).remove(path.get(path.size() - 1));
    }

    private static ObjectNode parentOf(ObjectNode root, List<String> path) {
        ObjectNode node = root;
        for (String segment : path.subList(0, path.size() - 1)) {
            JsonNode child = node.get(segment);
            if (!(child instanceof ObjectNode)) {
                child = node.putObject(segment);
            }
            node = (ObjectNode) child;
        }
        return node;
    }

    private static List<String> requireSegments(List<String> path) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a settings path needs at least one segment");
        }
        return path;
    }
}
