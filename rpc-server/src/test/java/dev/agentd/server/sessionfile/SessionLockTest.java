package dev.agentd.server.sessionfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** N5: one process writes a session file; the lock goes with the process, even a killed one. */
class SessionLockTest {
    @TempDir
    Path dir;
    final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    private Path stored() {
        Path file = dir.resolve("s.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        session.appendMessage(SessionFileTest.user("hello"));
        session.close();
        return file;
    }

    /** Another JVM holding {@code file}'s lock (it printed "locked"). */
    private static Process holder(Path file) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                LockHolder.class.getName(), file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("locked", out.readLine(), "the holder took the lock");
        return process;
    }

    @Test
    void aSessionAnotherProcessWritesIsRefusedUntilThatProcessIsKilled() throws Exception {
        Path file = stored();
        Process other = holder(file);
        try {
            SessionLockedException refused = assertThrows(SessionLockedException.class,
                    () -> SessionFile.load(file, clock::get));
            assertTrue(refused.getMessage().contains("is open in another agentd process (pid " + other.pid() + ")"),
                    refused.getMessage());
            SessionFile copy = SessionFile.readForCopy(file, clock::get);
            assertEquals(1, copy.entries().size(), "a copy may still be read");
        } finally {
            other.destroyForcibly(); // SIGKILL: nothing of the holder runs any more
            other.waitFor(30, TimeUnit.SECONDS);
        }
        SessionFile loaded = SessionFile.load(file, clock::get);
        loaded.appendMessage(SessionFileTest.user("after the kill"));
        loaded.close();
        assertEquals(3, Files.readAllLines(file).size());
    }

    @Test
    void closingGivesTheLockBackAndANewFileIsLockedFromItsFirstWrite() throws Exception {
        Path file = dir.resolve("new.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        assertFalse(Files.exists(SessionLock.sidecar(file)), "nothing on disk before the first message");
        session.appendMessage(SessionFileTest.user("hello"));
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LockHolder.class.getName(), file.toString())
                .redirectErrorStream(true).start();
        try {
            String output = new String(other.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(output.contains("SessionLockedException"), "the other JVM is refused: " + output);
        } finally {
            other.destroyForcibly();
            other.waitFor(30, TimeUnit.SECONDS);
        }
        session.close();
        Process after = holder(file); // the lock is free again
        after.destroyForcibly();
        after.waitFor(30, TimeUnit.SECONDS);
    }

    @Test
    void theSameProcessSharesItsOwnLock() throws IOException {
        Path file = stored();
        SessionFile first = SessionFile.load(file, clock::get);
        SessionFile again = SessionFile.load(file, clock::get); // switch_session to the current file
        first.close();
        again.appendMessage(SessionFileTest.user("still writable"));
        again.close();
        first.close(); // idempotent
        assertEquals(3, Files.readAllLines(file).size());
    }

    @Test
    void aPlantedSidecarIsNeitherFollowedNorBlocking() throws Exception {
        Path file = Files.copy(stored(), dir.resolve("p.jsonl")); // a session without a sidecar yet
        Path victim = Files.writeString(dir.resolve("victim.txt"), "untouched");
        Files.createSymbolicLink(SessionLock.sidecar(file), victim);
        assertThrows(IOException.class, () -> SessionLock.acquire(file));
        SessionFile loaded = SessionFile.load(file, clock::get); // opened without a lock, with a warning
        loaded.close();
        assertEquals("untouched", Files.readString(victim));
        Path fifoSession = dir.resolve("f.jsonl");
        Files.copy(file, fifoSession);
        Process mkfifo = new ProcessBuilder("mkfifo", SessionLock.sidecar(fifoSession).toString()).start();
        assertEquals(0, mkfifo.waitFor());
        IOException refused = assertThrows(IOException.class, () -> SessionLock.acquire(fifoSession));
        // Reached at all: the FIFO was never opened (that would block until a writer came).
        assertTrue(refused.getMessage().contains("not a regular file"), refused.getMessage());
    }
}
