package dev.agentd.server.sessionfile;

import java.io.IOException;
import java.nio.file.Path;

/** A session file over the load limit ({@link SessionFile#MAX_LOAD_BYTES}): refused before anything is read. */
public final class SessionTooLargeException extends IOException {
    SessionTooLargeException(Path file, long size, long limit) {
        super("session file " + file + " is too large to load (" + size + " bytes; the limit is "
                + limit / (1024 * 1024) + " MB)");
    }
}
