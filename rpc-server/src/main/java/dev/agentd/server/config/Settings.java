package dev.agentd.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * An immutable view of the effective settings (global merged with project merged with this
 * process's runtime toggles). Typed getters return the default for a missing key, and for a
 * malformed value the default plus one warning (reported once per key by the store).
 */
public final class Settings {
    private final ObjectNode root;
    private final BiConsumer<String, String> warnOnce;

    Settings(ObjectNode root, BiConsumer<String, String> warnOnce) {
        this.root = root;
        this.warnOnce = warnOnce;
    }

    /** The node at a dotted path (fixed keys whose segments hold no dot), or empty when absent or null. */
    public Optional<JsonNode> node(String path) {
        return node(JsonPaths.dotted(path));
    }

    /** The node at a path of segments (a segment may hold dots or slashes), or empty when absent or null. */
    public Optional<JsonNode> node(List<String> path) {
        return JsonPaths.get(root, path);
    }

    public boolean bool(String path, boolean fallback) {
        return node(path).map(value -> {
            if (value.isBoolean()) {
                return value.booleanValue();
            }
            return malformed(path, value, "a boolean", fallback);
        }).orElse(fallback);
    }

    public long integer(String path, long fallback, long min, long max) {
        return node(path).map(value -> {
            if (value.isIntegralNumber() && value.canConvertToLong() && value.longValue() >= min
                    && value.longValue() <= max) {
                return value.longValue();
            }
            return malformed(path, value, "an integer between " + min + " and " + max, fallback);
        }).orElse(fallback);
    }

    /** A number between {@code min} and {@code max} (e.g. a ratio), else {@code fallback} with one warning. */
    public double decimal(String path, double fallback, double min, double max) {
        return node(path).map(value -> {
            if (value.isNumber() && value.doubleValue() >= min && value.doubleValue() <= max) {
                return value.doubleValue();
            }
            return malformed(path, value, "a number between " + min + " and " + max, fallback);
        }).orElse(fallback);
    }

    public Optional<String> text(String path) {
        return node(path).flatMap(value -> {
            if (value.isTextual() && !value.textValue().isBlank()) {
                return Optional.of(value.textValue());
            }
            malformed(path, value, "a non-empty string", null);
            return Optional.empty();
        });
    }

    /** The raw merged tree (read-only by convention). */
    public ObjectNode root() {
        return root;
    }

    private <T> T malformed(String path, JsonNode value, String expected, T fallback) {
        warnOnce.accept(path, "settings: '" + path + "' should be " + expected + " but is " + value
                + "; using " + (fallback == null ? "no value" : fallback));
        return fallback;
    }
}
