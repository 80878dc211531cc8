package dev.agentd.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The locked read-modify-write shared by settings.json (and later circuits.json). */
class LockedJsonFileTest {
    private static final int PER_THREAD = 25;

    @TempDir
    Path dir;

    @Test
    void twoThreadsWithTheirOwnHandlesLoseNoUpdate() throws Exception {
        Path path = dir.resolve("shared/state.json");
        LockedJsonFile first = new LockedJsonFile(path);
        LockedJsonFile second = new LockedJsonFile(dir.resolve("shared/../shared/state.json"));
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> writers = List.of(
                    pool.submit(() -> writeMany(first, "a", start)),
                    pool.submit(() -> writeMany(second, "b", start)));
            start.countDown();
            for (Future<?> writer : writers) {
                writer.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        JsonNode onDisk = Json.mapper().readTree(Files.readString(path));
        // The counter is a read-modify-write: any update made on a stale copy would lower it.
        assertEquals(2 * PER_THREAD, onDisk.path("counter").asInt(), onDisk.toString());
        for (int i = 0; i < PER_THREAD; i++) {
            assertEquals(i, onDisk.path("a" + i).asInt(-1), "a" + i + " lost");
            assertEquals(i, onDisk.path("b" + i).asInt(-1), "b" + i + " lost");
        }
        try (var files = Files.list(path.getParent())) {
            assertEquals(List.of("state.json", "state.json.lock"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file is left");
        }
    }

    private static Void writeMany(LockedJsonFile file, String prefix, CountDownLatch start) throws Exception {
        start.await();
        for (int i = 0; i < PER_THREAD; i++) {
            int n = i;
            file.update(content -> {
                content.put("counter", content.path("counter").asInt() + 1);
                content.put(prefix + n, n);
            });
        }
        return null;
    }

    @Test
    void aFileThatIsNotAnObjectIsNeverOverwritten() throws IOException {
        Path path = dir.resolve("list.json");
        Files.writeString(path, "[1,2]");
        LockedJsonFile file = new LockedJsonFile(path);
        IOException problem = assertThrows(IOException.class, () -> file.update(content -> content.put("k", 1)));
        assertEquals(path + " is not a JSON object; not overwriting it", problem.getMessage());
        assertEquals("[1,2]", Files.readString(path));
    }

    @Test
    void aMissingOrEmptyFileReadsAsAnEmptyObject() throws IOException {
        Path path = dir.resolve("empty.json");
        LockedJsonFile file = new LockedJsonFile(path);
        assertEquals("{}", file.read().toString());
        Files.writeString(path, "");
        assertEquals("{}", file.read().toString());
        assertEquals("{\"k\":1}", file.update(content -> content.put("k", 1)).toString());
    }
}
