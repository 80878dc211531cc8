package dev.agentd.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@link FileState}s on one file, from two threads and from two processes: every open and
 * every block lands (the shared circuit's {@code consecutiveOpens} counts all of them), and the
 * file is valid JSON whenever a reader looks.
 */
class FileStateConcurrencyTest {
    /** Long enough that nothing is swept while the test runs, however slow the machine. */
    static final CircuitTimings TIMINGS = new CircuitTimings(3_600_000, 36_000_000, 60_000);
    private static final int COUNT = 60;

    @TempDir
    Path dir;

    /** {@code count} opens of the shared circuit, one of its own, and {@code count} credential blocks. */
    static void hammer(FileState state, String name, int count) {
        for (int i = 0; i < count; i++) {
            state.open("shared/model", OptionalLong.empty(), TIMINGS);
            state.open(name + "/own", OptionalLong.empty(), TIMINGS);
            state.block(CredentialIds.of(name, "key-" + i), 600_000);
        }
    }

    @Test
    void twoThreadsLoseNoUpdate() throws Exception {
        Path file = dir.resolve(FileState.FILE_NAME);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<String> badRead = new AtomicReference<>();
        Thread reader = readWhileRunning(file, running, badRead);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (String name : List.of("one", "two")) {
            Thread writer = new Thread(() -> {
                try {
                    start.await();
                    hammer(new FileState(file, System::currentTimeMillis), name, COUNT);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            writer.start();
            writers.add(writer);
        }
        start.countDown();
        for (Thread writer : writers) {
            writer.join(TimeUnit.MINUTES.toMillis(2));
        }
        running.set(false);
        reader.join();
        assertEquals(null, failure.get());
        assertEquals(null, badRead.get(), "a reader saw a partial file");
        assertEverythingLanded(file, List.of("one", "two"));
    }

    @Test
    void twoProcessesLoseNoUpdate() throws Exception {
        Path file = dir.resolve(FileState.FILE_NAME);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process other = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                StateWorker.class.getName(), file.toString(), "child", Integer.toString(COUNT))
                .redirectErrorStream(true).start();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<String> badRead = new AtomicReference<>();
        Thread reader = readWhileRunning(file, running, badRead);
        hammer(new FileState(file, System::currentTimeMillis), "parent", COUNT);
        assertTrue(other.waitFor(2, TimeUnit.MINUTES), "the second process finished");
        String output = new String(other.getInputStream().readAllBytes());
        running.set(false);
        reader.join();
        assertEquals(0, other.exitValue(), output);
        assertTrue(output.contains("done"), output);
        assertEquals(null, badRead.get(), "a reader saw a partial file");
        assertEverythingLanded(file, List.of("parent", "child"));
    }

    private static void assertEverythingLanded(Path file, List<String> names) throws IOException {
        JsonNode root = Json.mapper().readTree(Files.readString(file));
        assertEquals(COUNT * names.size(), root.path("circuits").path("shared/model").path("consecutiveOpens").intValue(),
                "every open of the shared circuit counted");
        for (String name : names) {
            assertEquals(COUNT, root.path("circuits").path(name + "/own").path("consecutiveOpens").intValue());
        }
        assertEquals(COUNT * names.size(), root.path("credentialBlocks").size(), "every block kept");
        FileState check = new FileState(file, System::currentTimeMillis);
        for (String name : names) {
            for (int i = 0; i < COUNT; i++) {
                assertTrue(check.blockedForMs(CredentialIds.of(name, "key-" + i)) > 0);
            }
        }
    }

    /** Reads the file in a loop; the first content that is not a JSON object is kept in {@code bad}. */
    private static Thread readWhileRunning(Path file, AtomicBoolean running, AtomicReference<String> bad) {
        Thread reader = new Thread(() -> {
            while (running.get()) {
                try {
                    if (Files.exists(file)) {
                        String text = Files.readString(file);
                        if (!Json.mapper().readTree(text).isObject()) {
                            bad.compareAndSet(null, text);
                        }
                    }
                } catch (java.nio.file.NoSuchFileException e) {
                    // between two renames the name is always present; a missing file only before the first write
                } catch (IOException e) {
                    bad.compareAndSet(null, e.toString());
                }
                Thread.onSpinWait();
            }
        });
        reader.setDaemon(true);
        reader.start();
        return reader;
    }
}
