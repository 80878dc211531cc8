package dev.agentd.server.sessionfile;

import java.io.IOException;
import java.nio.file.Path;

/** A session file that another agentd process writes now ({@link SessionLock}). */
public final class SessionLockedException extends IOException {
    private final transient Path file;

    SessionLockedException(Path file, String holderPid) {
        super("session " + file + " is open in another agentd process"
                + (holderPid == null ? "" : " (pid " + holderPid + ")"));
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
