package dev.agentd.server.runtime;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.agentd.protocol.text.Lines;
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
            String reason = safe(Lines.firstLine(json.getOriginalMessage()).orElse("unreadable"));
            if (at != null && at.getLineNr() > 0) {
                return source + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": " + reason;
            }
            return source + ": " + reason;
        }
        return source + ": " + Lines.firstLine(e.getMessage()).orElse(e.getClass().getSimpleName());
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
}
