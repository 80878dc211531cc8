package dev.agentd.server.fallback;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Makes a {@code fallback.log} record safe (the fallback design §7). Pure.
 *
 * <ul>
 *   <li>Top-level keys: only the {@link #ALLOWED} ones (decision on the reference's open point:
 *       {@code trigger} and {@code limit} are kept, {@code source} is not).
 *   <li>Keys at every depth: dropped when their lowercased form is in {@link #BLOCKED}.
 *   <li>Every string (values and keys): secrets after {@code authorization: bearer|basic},
 *       {@code bearer }, {@code x-api-key:}, in {@code sk-…}-shaped keys and in query parameters
 *       such as {@code ?api_key=} become {@code [redacted]}; then the text is cut to
 *       {@value #MAX_TEXT} characters.
 * </ul>
 * The scan is a hand-written single pass (fixed markers tried at each position, each secret
 * consumed once), so its cost is linear in the text whatever the text holds — no regular
 * expression that could backtrack on hostile provider output.
 */
public final class LogScrubber {
    public static final int MAX_TEXT = 200;
    static final String REDACTED = "[redacted]";
    private static final int MAX_DEPTH = 8;
    private static final int MAX_ITEMS = 50;
    /** An {@code sk-} run shorter than this is ordinary text (e.g. {@code sk-learn}). */
    private static final int MIN_KEY_LENGTH = 16;

    static final Set<String> ALLOWED = Set.of("selector", "candidate", "currentSelector", "originalSelector", "from",
            "to", "model", "chainKey", "reason", "skipReason", "classification", "thinkingLevel", "durationMs",
            "retryAfterMs", "error", "errorMessage", "warning", "trigger", "limit", "circuit",
            "utilization", "threshold");

    static final Set<String> BLOCKED = Set.of("__proto__", "constructor", "prototype", "header", "headers", "env",
            "environment", "authorization", "proxy-authorization", "cookie", "set-cookie", "credential", "credentials",
            "password", "passwd", "secret", "secrets", "token", "tokens", "access_token", "refresh_token", "id_token",
            "api_key", "api-key", "apikey", "x-api-key", "client_secret", "clientsecret", "private_key");

    private static final String[] QUERY_NAMES = {"api_key", "api-key", "apikey", "key", "access_token", "token",
        "secret", "password", "authorization", "auth"};

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private LogScrubber() {}

    /** The line object {@code {"ts","level","event",…allowed data}}. */
    public static ObjectNode record(String ts, String level, String event, Map<String, ?> data) {
        ObjectNode line = NODES.objectNode();
        line.put("ts", ts);
        line.put("level", level);
        line.put("event", text(event));
        if (data != null) {
            Set<Object> path = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            for (Map.Entry<String, ?> entry : data.entrySet()) {
                String key = entry.getKey();
                if (key != null && ALLOWED.contains(key) && !blocked(key)) {
                    line.set(key, value(entry.getValue(), 1, path));
                }
            }
        }
        return line;
    }

    /** Whether a key is dropped at any depth (case-insensitive). */
    public static boolean blocked(String key) {
        return BLOCKED.contains(key.toLowerCase(Locale.ROOT));
    }

    /** Redacted, then cut to {@value #MAX_TEXT} characters ({@code 197 + "..."}). */
    public static String text(String raw) {
        if (raw == null) {
            return null;
        }
        String clean = redact(raw);
        return clean.length() <= MAX_TEXT ? clean : clean.substring(0, MAX_TEXT - 3) + "...";
    }

    /** Every secret in {@code raw} replaced by {@code [redacted]}, prefixes kept. */
    public static String redact(String raw) {
        int n = raw.length();
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        while (i < n) {
            int start = secretStart(raw, i);
            boolean apiKey = start == KEY_MARK;
            if (apiKey) {
                start = i + 3;
            }
            int end = start < 0 ? -1 : apiKey ? keyEnd(raw, start) : valueEnd(raw, start);
            if (end > start) {
                if (out == null) {
                    out = new StringBuilder(n);
                }
                out.append(raw, copied, start).append(REDACTED);
                copied = end;
                i = end;
            } else {
                i++;
            }
        }
        if (out == null) {
            return raw;
        }
        return out.append(raw, copied, n).toString();
    }

    /** Marker result meaning "an {@code sk-} key starts here". */
    private static final int KEY_MARK = -2;

    /** Where the secret after a marker at {@code i} starts; -1 when no marker starts at {@code i}. */
    private static int secretStart(String s, int i) {
        char c = s.charAt(i);
        switch (Character.toLowerCase(c)) {
            case 'a': {
                if (!boundary(s, i) || !at(s, i, "authorization")) {
                    return -1;
                }
                int j = separator(s, i + "authorization".length());
                if (j < 0) {
                    return -1;
                }
                int scheme = word(s, j, "bearer");
                if (scheme < 0) {
                    scheme = word(s, j, "basic");
                }
                return scheme < 0 ? j : scheme;
            }
            case 'b':
                return boundary(s, i) ? word(s, i, "bearer") : -1;
            case 'x':
                if (!boundary(s, i) || !at(s, i, "x-api-key")) {
                    return -1;
                }
                return separator(s, i + "x-api-key".length());
            case 's':
                if (boundary(s, i) && at(s, i, "sk-") && keyEnd(s, i + 3) - (i + 3) >= MIN_KEY_LENGTH) {
                    return KEY_MARK;
                }
                return -1;
            case '?':
            case '&':
                // Every name starts with one of these letters: one comparison rejects most text.
                if (i + 1 >= s.length() || "aktspAKTSP".indexOf(s.charAt(i + 1)) < 0) {
                    return -1;
                }
                for (String name : QUERY_NAMES) {
                    int j = i + 1 + name.length();
                    if (at(s, i + 1, name) && j < s.length() && s.charAt(j) == '=') {
                        return j + 1;
                    }
                }
                return -1;
            default:
                return -1;
        }
    }

    /** After a header-ish name: optional quotes and blanks, {@code :} or {@code =}, blanks and quotes. */
    private static int separator(String s, int j) {
        int n = s.length();
        while (j < n && (s.charAt(j) == '"' || s.charAt(j) == '\'' || s.charAt(j) == ' ')) {
            j++;
        }
        if (j >= n || (s.charAt(j) != ':' && s.charAt(j) != '=')) {
            return -1;
        }
        j++;
        while (j < n && (s.charAt(j) == ' ' || s.charAt(j) == '\t' || s.charAt(j) == '"' || s.charAt(j) == '\'')) {
            j++;
        }
        return j;
    }

    /** {@code word} (any case) at {@code j} followed by at least one blank: the index after the blanks. */
    private static int word(String s, int j, String word) {
        if (!at(s, j, word)) {
            return -1;
        }
        int k = j + word.length();
        int n = s.length();
        if (k >= n || (s.charAt(k) != ' ' && s.charAt(k) != '\t')) {
            return -1;
        }
        while (k < n && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) {
            k++;
        }
        return k;
    }

    /** The end of a header or query value: the next blank, {@code & , ; " ' } ]} or the end. */
    private static int valueEnd(String s, int j) {
        int n = s.length();
        while (j < n) {
            char c = s.charAt(j);
            if (Character.isWhitespace(c) || c == '&' || c == ',' || c == ';' || c == '"' || c == '\'' || c == '}'
                    || c == ']') {
                break;
            }
            j++;
        }
        return j;
    }

    /** The end of an API-key-shaped run of letters, digits, {@code -} and {@code _}. */
    private static int keyEnd(String s, int j) {
        int n = s.length();
        while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '-' || s.charAt(j) == '_')) {
            j++;
        }
        return j;
    }

    private static boolean at(String s, int i, String word) {
        return s.regionMatches(true, i, word, 0, word.length());
    }

    private static boolean boundary(String s, int i) {
        return i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1));
    }

    private static JsonNode value(Object value, int depth, Set<Object> path) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof Optional<?> optional) {
            return optional.isPresent() ? value(optional.get(), depth, path) : NODES.nullNode();
        }
        if (value instanceof CharSequence text) {
            return NODES.textNode(text(text.toString()));
        }
        if (value instanceof Boolean bool) {
            return NODES.booleanNode(bool);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return NODES.numberNode(((Number) value).longValue());
        }
        if (value instanceof Double || value instanceof Float) {
            return NODES.numberNode(((Number) value).doubleValue());
        }
        if (value instanceof Enum<?> || value instanceof Number) {
            return NODES.textNode(text(value.toString()));
        }
        if (depth > MAX_DEPTH) {
            return NODES.textNode("[Too deep]");
        }
        if (!path.add(value)) {
            return NODES.textNode("[Circular]");
        }
        try {
            if (value instanceof Map<?, ?> map) {
                ObjectNode object = NODES.objectNode();
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    String key = String.valueOf(entry.getKey());
                    if (!blocked(key) && object.size() < MAX_ITEMS) {
                        object.set(text(key), value(entry.getValue(), depth + 1, path));
                    }
                }
                return object;
            }
            if (value instanceof JsonNode node) {
                return json(node, depth);
            }
            if (value instanceof Collection<?> || value instanceof Object[]) {
                Iterable<?> items = value instanceof Collection<?> c ? c : java.util.Arrays.asList((Object[]) value);
                ArrayNode array = NODES.arrayNode();
                for (Object item : items) {
                    if (array.size() == MAX_ITEMS) {
                        break;
                    }
                    array.add(value(item, depth + 1, path));
                }
                return array;
            }
            return NODES.textNode(text(String.valueOf(value)));
        } catch (RuntimeException unreadable) {
            return NODES.textNode("[Unreadable]");
        } finally {
            path.remove(value);
        }
    }

    private static JsonNode json(JsonNode node, int depth) {
        if (node.isTextual()) {
            return NODES.textNode(text(node.textValue()));
        }
        if (depth > MAX_DEPTH) {
            return NODES.textNode("[Too deep]");
        }
        if (node.isObject()) {
            ObjectNode object = NODES.objectNode();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (object.size() == MAX_ITEMS) {
                    break;
                }
                if (!blocked(field.getKey())) {
                    object.set(text(field.getKey()), json(field.getValue(), depth + 1));
                }
            }
            return object;
        }
        if (node.isArray()) {
            ArrayNode array = NODES.arrayNode();
            for (JsonNode item : node) {
                if (array.size() == MAX_ITEMS) {
                    break;
                }
                array.add(json(item, depth + 1));
            }
            return array;
        }
        return node.isValueNode() ? node.deepCopy() : NODES.textNode("[Unreadable]");
    }
}
