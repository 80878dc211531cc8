package dev.agentd.server.rpc;

import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@code "id"} of a line that is not valid JSON, so its parse error can still be
 * correlated (SPEC §3.3). Best effort: the first {@code "id":"…"} in the line's first 64 KiB.
 */
final class IdRecovery {
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final int SCAN_LIMIT = 64 * 1024;

    private IdRecovery() {}

    /** The id, with its JSON escapes decoded as a parser would; null when none is found. */
    static String recover(byte[] line) {
        String head = new String(line, 0, Math.min(line.length, SCAN_LIMIT), StandardCharsets.UTF_8);
        Matcher matcher = ID.matcher(head);
        if (!matcher.find()) {
            return null;
        }
        String literal = matcher.group(1);
        if (literal.indexOf('\\') < 0) {
            return literal;
        }
        try {
            return Json.mapper().readValue("\"" + literal + "\"", String.class);
        } catch (IOException e) {
            return literal; // a broken escape: echo the text as it was written
        }
    }
}
