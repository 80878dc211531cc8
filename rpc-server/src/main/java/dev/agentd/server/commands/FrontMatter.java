package dev.agentd.server.commands;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A markdown file's optional {@code ---} front matter of {@code key: value} lines, and the body after it. */
record FrontMatter(Map<String, String> fields, String body) {

    static FrontMatter parse(String text) {
        String normalized = text.replace("\r\n", "\n");
        if (!normalized.startsWith("---\n")) {
            return new FrontMatter(Map.of(), normalized);
        }
        int end = normalized.indexOf("\n---", 3);
        if (end < 0) {
            return new FrontMatter(Map.of(), normalized);
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : normalized.substring(4, end).split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                String value = line.substring(colon + 1).strip();
                if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                        || value.startsWith("'") && value.endsWith("'"))) {
                    value = value.substring(1, value.length() - 1);
                }
                fields.put(line.substring(0, colon).strip(), value);
            }
        }
        int bodyStart = normalized.indexOf('\n', end + 1);
        return new FrontMatter(Map.copyOf(fields), bodyStart < 0 ? "" : normalized.substring(bodyStart + 1));
    }

    Optional<String> get(String key) {
        return Optional.ofNullable(fields.get(key)).filter(value -> !value.isEmpty());
    }
}
