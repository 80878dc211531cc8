package dev.agentd.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentd.protocol.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §2: merge rules, defaults with one warning, atomic locked writes, malformed files left alone. */
class SettingsStoreTest {
    @TempDir
    Path dir;

    private Path global() {
        return dir.resolve("agent/settings.json");
    }

    private Path project() {
        return dir.resolve("project/.agentd/settings.json");
    }

    private void write(Path file, String json) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, json);
    }

    @Test
    void projectIsDeepMergedOverGlobal() throws IOException {
        write(global(), "{\"retry\":{\"enabled\":true,\"maxRetries\":5,\"baseDelayMs\":100},"
                + "\"list\":[1,2],\"steeringMode\":\"all\"}");
        write(project(), "{\"retry\":{\"maxRetries\":7},\"list\":[3]}");
        Settings settings = new SettingsStore(global(), project()).current();
        assertTrue(settings.bool("retry.enabled", false));
        assertEquals(7, settings.integer("retry.maxRetries", 3, 0, 100));
        assertEquals(100, settings.integer("retry.baseDelayMs", 2000, 0, Long.MAX_VALUE));
        assertEquals("[3]", settings.node("list").orElseThrow().toString(), "arrays are replaced, not merged");
        assertEquals("all", settings.text("steeringMode").orElseThrow());
    }

    @Test
    void malformedValuesFallBackToDefaultsWithOneWarning() throws IOException {
        write(global(), "{\"retry\":{\"maxRetries\":\"three\",\"enabled\":\"yes\",\"baseDelayMs\":-5}}");
        String stderr = captureStderr(() -> {
            Settings settings = new SettingsStore(global(), null).current();
            for (int i = 0; i < 3; i++) {
                assertEquals(3, settings.integer("retry.maxRetries", 3, 0, 100));
                assertTrue(settings.bool("retry.enabled", true));
                assertEquals(2000, settings.integer("retry.baseDelayMs", 2000, 0, Long.MAX_VALUE));
            }
        });
        assertEquals(1, count(stderr, "retry.maxRetries"), stderr);
        assertEquals(1, count(stderr, "retry.enabled"), stderr);
        assertEquals(1, count(stderr, "retry.baseDelayMs"), stderr);
    }

    @Test
    void togglesArePersistedGloballyKeepingUnknownKeys() throws IOException {
        write(global(), "{\"custom\":{\"keep\":1},\"retry\":{\"maxRetries\":4}}");
        SettingsStore store = new SettingsStore(global(), project());
        store.set("retry.enabled", BooleanNode.FALSE);
        JsonNode onDisk = Json.mapper().readTree(Files.readString(global()));
        assertEquals(1, onDisk.path("custom").path("keep").asInt());
        assertEquals(4, onDisk.path("retry").path("maxRetries").asInt());
        assertFalse(onDisk.path("retry").path("enabled").asBoolean(true));
        assertFalse(Files.exists(project()), "toggles never write the project file");
        try (var files = Files.list(global().getParent())) {
            assertEquals(List.of("settings.json", "settings.json.lock"),
                    files.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file is left");
        }
    }

    @Test
    void aToggleWinsOverTheProjectValueForThisProcess() throws IOException {
        write(project(), "{\"retry\":{\"enabled\":true}}");
        SettingsStore store = new SettingsStore(global(), project());
        store.set("retry.enabled", BooleanNode.FALSE);
        assertFalse(store.current().bool("retry.enabled", true));
    }

    @Test
    void aMalformedFileIsIgnoredAndNeverOverwritten() throws IOException {
        write(global(), "{\"retry\": {not json");
        SettingsStore store = new SettingsStore(global(), null);
        assertTrue(store.current().bool("retry.enabled", true));
        assertThrows(IOException.class, () -> store.set("retry.enabled", BooleanNode.FALSE));
        assertEquals("{\"retry\": {not json", Files.readString(global()));
        assertFalse(store.current().bool("retry.enabled", true), "the toggle still applies in memory");
    }

    @Test
    void concurrentWritersLoseNothing() throws Exception {
        SettingsStore first = new SettingsStore(global(), null);
        SettingsStore second = new SettingsStore(global(), null);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int n = i;
                SettingsStore store = n % 2 == 0 ? first : second;
                futures.add(pool.submit(() -> {
                    store.set("k" + n, IntNode.valueOf(n));
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdown();
        }
        JsonNode onDisk = Json.mapper().readTree(Files.readString(global()));
        for (int i = 0; i < 20; i++) {
            assertEquals(i, onDisk.path("k" + i).asInt(-1), "key k" + i + " lost: " + onDisk);
        }
    }

    private static int count(String text, String needle) {
        int count = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            count++;
        }
        return count;
    }

    private static String captureStderr(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
