package dev.agentd.server.sessionfile;

import java.nio.file.Path;

/**
 * A second JVM for {@link SessionLockTest}: loads the session file named by its argument (taking
 * its lock), prints {@code locked}, and holds it until stdin ends or it is killed.
 */
public final class LockHolder {
    private LockHolder() {}

    public static void main(String[] args) throws Exception {
        SessionFile.load(Path.of(args[0]), System::currentTimeMillis);
        System.out.println("locked"); // the test's channel to this process, not agentd's protocol
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold the lock until the test closes our stdin
        }
    }
}
