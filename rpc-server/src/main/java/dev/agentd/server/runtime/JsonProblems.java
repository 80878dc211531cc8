package dev.agentd.server.runtime;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;

/**
 * Turns a JSON parse failure into {@code "<file>:<line>:<column>: <reason>"}, so a user can jump
 * to the mistake. The reason is Jackson's own first line, without its source excerpt (a config
 * file may hold a key, and the excerpt would quote it).
 */
public final class JsonProblems {
    private JsonProblems() {}

    public static String describe(String source, IOException e) {
        if (e instanceof JsonProcessingException json) {
            JsonLocation at = json.getLocation();
            String reason = safe(firstLine(json.getOriginalMessage()));
            if (at != null && at.getLineNr() > 0) {
                return source + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": " + reason;
            }
            return source + ": " + reason;
        }
        return source + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : firstLine(e.getMessage()));
    }

    /** Jackson quotes an unrecognized token verbatim; in these files that token may be a key. */
    private static String safe(String reason) {
        int marker = reason.indexOf(" (start marker at [Source");
        if (marker > 0) {
            reason = reason.substring(0, marker); // the line and column are given already
        }
        return reason.startsWith("Unrecognized token") ? "Unrecognized token (a value must be quoted, a number, "
                + "true, false or null)" : reason;
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
