package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * N11: {@code logs/fallback.log} or {@code logs/} as a symbolic link is never written through, and
 * a FIFO there never blocks the writer; each is one warning and no record. Bounded by a generous
 * ceiling so that a regression fails instead of hanging.
 */
class FallbackLogLinksTest {
    private static final Duration CEILING = Duration.ofSeconds(30);

    @TempDir
    Path agentDir;
    @TempDir
    Path elsewhere;

    @Test
    void aSymlinkedLogFileIsNotFollowed() throws Exception {
        Path victim = Files.writeString(elsewhere.resolve("victim.txt"), "victim\n");
        Files.createDirectories(agentDir.resolve("logs"));
        Files.createSymbolicLink(agentDir.resolve("logs/fallback.log"), victim);
        String stderr = writeTwice();
        assertEquals("victim\n", Files.readString(victim));
        assertEquals(1, stderr.lines().filter(line -> line.contains("Unable to write the fallback log")).count(), stderr);
        assertTrue(stderr.contains("symbolic link"), stderr);
    }

    @Test
    void aSymlinkedLogsDirectoryIsNotFollowed() throws Exception {
        Files.createSymbolicLink(agentDir.resolve("logs"), elsewhere);
        String stderr = writeTwice();
        try (var files = Files.list(elsewhere)) {
            assertEquals(0, files.count(), "nothing created in the link's target");
        }
        assertEquals(1, stderr.lines().filter(line -> line.contains("Unable to write the fallback log")).count(), stderr);
    }

    @Test
    void aFifoAsTheLogFileNeverBlocks() throws Exception {
        Files.createDirectories(agentDir.resolve("logs"));
        assumeTrue(mkfifo(agentDir.resolve("logs/fallback.log")), "mkfifo is not available");
        String stderr = assertTimeoutPreemptively(CEILING, this::writeTwice);
        assertTrue(stderr.contains("not a regular file"), stderr);
    }

    private String writeTwice() {
        NdjsonFallbackLog log = new NdjsonFallbackLog(agentDir, 1 << 20, Clock.systemUTC());
        PrintStream original = System.err;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            log.info("circuit_opened", Map.of("selector", "a/b"));
            log.info("circuit_opened", Map.of("selector", "a/b"));
        } finally {
            System.setErr(original);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }

    private static boolean mkfifo(Path path) {
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
