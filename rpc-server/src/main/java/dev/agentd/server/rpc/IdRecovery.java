package dev.agentd.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Finds the {@code "id"} of a line that is not valid JSON, so its parse error can still be
 * correlated (SPEC §3.3). Best effort: the first {@code "id":"…"} in the line's first 64 KiB.
 * A hand-written scan, not a regex: the text is untrusted, and a regex over a long string used to
 * recurse once per character until the stack overflowed. Each character is looked at a bounded
 * number of times, so the work is linear in the (bounded) input.
 */
final class IdRecovery {
    private static final String KEY = "\"id\"";
    private static final int SCAN_LIMIT = 64 * 1024;
    /** Longer than any number an id would be; the scan stops there. */
    private static final int MAX_NUMBER_CHARS = 40;

    private IdRecovery() {}

    /** The id, with its JSON escapes decoded as a parser would; null when none is found. */
    static String recover(byte[] line) {
        String head = new String(line, 0, Math.min(line.length, SCAN_LIMIT), StandardCharsets.UTF_8);
        String literal = literal(head);
        if (literal == null || literal.indexOf('\\') < 0) {
            return literal;
        }
        try {
            return Json.mapper().readValue("\"" + literal + "\"", String.class);
        } catch (IOException e) {
            return literal; // a broken escape: echo the text as it was written
        }
    }

    /**
     * The id as the JSON value it was written as — a string, a number or {@code null} (pi 0.73 echoes
     * all three) — or Java null when none is found.
     */
    static JsonNode recoverNode(byte[] line) {
        String head = new String(line, 0, Math.min(line.length, SCAN_LIMIT), StandardCharsets.UTF_8);
        int value = valueStart(head);
        if (value < 0) {
            return null;
        }
        char first = head.charAt(value);
        if (first == '"') {
            String text = recover(line);
            return text == null ? null : TextNode.valueOf(text);
        }
        if (head.startsWith("null", value)) {
            return NullNode.getInstance();
        }
        int end = value;
        while (end < head.length() && end - value < MAX_NUMBER_CHARS && "+-.0123456789eE".indexOf(head.charAt(end)) >= 0) {
            end++;
        }
        if (end == value) {
            return null;
        }
        try {
            JsonNode number = Json.mapper().readTree(head.substring(value, end));
            return number != null && number.isNumber() ? number : null;
        } catch (IOException e) {
            return null; // not a number after all
        }
    }

    /** Where the value of the first {@code "id" :} starts, or -1. */
    private static int valueStart(String text) {
        int from = 0;
        while (true) {
            int key = text.indexOf(KEY, from);
            if (key < 0) {
                return -1;
            }
            int at = skipSpace(text, key + KEY.length());
            if (at < text.length() && text.charAt(at) == ':') {
                at = skipSpace(text, at + 1);
                if (at < text.length()) {
                    return at;
                }
            }
            from = Math.max(at, key + 1);
        }
    }

    /** The raw text between the quotes of the first {@code "id" : "…"}; null if there is none. */
    static String literal(String text) {
        int from = 0;
        while (true) {
            int key = text.indexOf(KEY, from);
            if (key < 0) {
                return null;
            }
            int at = skipSpace(text, key + KEY.length());
            if (at < text.length() && text.charAt(at) == ':') {
                at = skipSpace(text, at + 1);
                if (at < text.length() && text.charAt(at) == '"') {
                    int end = closingQuote(text, at + 1);
                    // An unterminated string runs to the end: no later "id" can be read either.
                    return end < 0 ? null : text.substring(at + 1, end);
                }
            }
            from = Math.max(at, key + 1); // what was skipped holds no "id" key
        }
    }

    private static int skipSpace(String text, int at) {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f' && c != '\u000B') {
                break;
            }
            at++;
        }
        return at;
    }

    /** The index of the unescaped quote that ends a string starting at {@code at}, or -1. */
    private static int closingQuote(String text, int at) {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c == '"') {
                return at;
            }
            at += c == '\\' ? 2 : 1;
        }
        return -1;
    }
}
