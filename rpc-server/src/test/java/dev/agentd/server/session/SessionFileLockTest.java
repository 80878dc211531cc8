package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.server.sessionfile.LockHolder;
import dev.agentd.server.testing.SessionHarness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** N5: a session holds its file's lock while it writes it and gives it back when it moves on or closes. */
class SessionFileLockTest {
    @TempDir
    Path dir;

    /** What a second JVM says when it tries to take {@code file}: "locked" or the refusal. */
    private static String otherProcessTakes(Path file) throws IOException, InterruptedException {
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LockHolder.class.getName(), file.toString())
                .redirectErrorStream(true).start();
        other.getOutputStream().close(); // it lets go at once after taking it
        String output = new String(other.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        other.waitFor(30, TimeUnit.SECONDS);
        return output;
    }

    @Test
    void theLockIsHeldWhileWritingAndGivenBackOnNewSessionAndOnClose() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(FauxStep.text("answer"), FauxStep.text("answer two"));
            await().until(harness.session.prompt("one")::isDone);
            Path first = Path.of(harness.session.sessionFile());
            assertTrue(otherProcessTakes(first).contains("SessionLockedException"), "held while it is the session's");
            harness.session.newSession(null).get(30, TimeUnit.SECONDS);
            assertEquals("locked", otherProcessTakes(first).trim(), "given back on new_session");
            await().until(harness.session.prompt("two")::isDone);
            Path second = Path.of(harness.session.sessionFile());
            assertTrue(otherProcessTakes(second).contains("SessionLockedException"));
            harness.session.switchSession(first).get(30, TimeUnit.SECONDS);
            assertEquals("locked", otherProcessTakes(second).trim(), "given back on switch_session");
            assertTrue(otherProcessTakes(first).contains("SessionLockedException"), "the switched-to file is taken");
            harness.session.close();
            assertEquals("locked", otherProcessTakes(first).trim(), "given back on close");
        }
    }
}
