package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fallback design §7: NDJSON lines, private modes, rotation, and failures that never throw. */
class NdjsonFallbackLogTest {
    private static final String FAKE_KEY = "sk-proj-ZZfakeDISTINCTIVEkey0123456789";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path agentDir;

    private List<JsonNode> lines(Path file) throws Exception {
        List<JsonNode> nodes = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            nodes.add(Json.mapper().readTree(line));
        }
        return nodes;
    }

    @Test
    void writesOneScrubbedObjectPerLine() throws Exception {
        NdjsonFallbackLog log = new NdjsonFallbackLog(agentDir, 1 << 20, CLOCK);
        log.info("fallback_applied", Map.of("from", "anthropic/claude-opus-4-5", "to", "openai/gpt-5",
                "reason", "transient", "headers", Map.of("authorization", "Bearer " + FAKE_KEY)));
        log.warn("validation_warning", Map.of("warning", "bad key", "source", "project"));
        log.debug("candidate_skipped", Map.of("candidate", "openai/gpt-5", "skipReason", "tried",
                "errorMessage", "401 invalid x-api-key: " + FAKE_KEY + " for Authorization: Bearer " + FAKE_KEY));

        Path file = agentDir.resolve("logs/fallback.log");
        assertEquals(file, log.file());
        List<JsonNode> lines = lines(file);
        assertEquals(3, lines.size());
        assertEquals("{\"ts\":\"2026-12-01T10:00:00Z\",\"level\":\"info\",\"event\":\"fallback_applied\","
                + "\"from\":\"anthropic/claude-opus-4-5\",\"to\":\"openai/gpt-5\",\"reason\":\"transient\"}",
                sorted(lines.get(0)));
        assertEquals("warn", lines.get(1).get("level").asText());
        assertFalse(lines.get(1).has("source"));
        assertEquals("debug", lines.get(2).get("level").asText());
        String text = Files.readString(file);
        assertFalse(text.contains("DISTINCTIVE"), text);
        assertFalse(text.contains("ZZfake"), text);
    }

    /** The three data keys in a fixed order (Map.of has none). */
    private static String sorted(JsonNode line) {
        return "{\"ts\":" + line.get("ts") + ",\"level\":" + line.get("level") + ",\"event\":" + line.get("event")
                + ",\"from\":" + line.get("from") + ",\"to\":" + line.get("to") + ",\"reason\":" + line.get("reason")
                + "}" + (line.size() == 6 ? "" : " plus " + line);
    }

    @Test
    void directoryIsPrivateAndFileIsOwnerOnly() throws Exception {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        new NdjsonFallbackLog(agentDir, 1 << 20, CLOCK).info("no_chain", Map.of());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(agentDir.resolve("logs"))));
        assertEquals("rw-------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(agentDir.resolve("logs/fallback.log"))));
    }

    @Test
    void rotatesToDotOnePastMaxBytesKeepingOneGeneration() throws Exception {
        NdjsonFallbackLog log = new NdjsonFallbackLog(agentDir, 300, CLOCK);
        for (int i = 0; i < 12; i++) {
            log.info("cooldown_noted", Map.of("selector", "p/m" + i));
        }
        Path file = agentDir.resolve("logs/fallback.log");
        Path rotated = agentDir.resolve("logs/fallback.log.1");
        assertTrue(Files.size(file) <= 300, "current file stays under the cap");
        assertTrue(Files.size(rotated) <= 300);
        List<JsonNode> current = lines(file);
        List<JsonNode> previous = lines(rotated);
        assertEquals("p/m11", current.get(current.size() - 1).get("selector").asText());
        // the rotated file holds the lines right before the current file's first line
        int firstCurrent = Integer.parseInt(current.get(0).get("selector").asText().substring(3));
        assertEquals("p/m" + (firstCurrent - 1), previous.get(previous.size() - 1).get("selector").asText());
        assertTrue(current.size() + previous.size() < 12, "older generations are dropped");
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(rotated)));
        }
    }

    @Test
    void aWriteFailureNeverThrowsAndIsReportedOnceOnStderr() throws Exception {
        Path notADirectory = agentDir.resolve("file");
        Files.writeString(notADirectory, "x");
        NdjsonFallbackLog log = new NdjsonFallbackLog(notADirectory, 1 << 20, CLOCK);
        String stderr = captureStderr(() -> {
            log.info("fallback_applied", Map.of("errorMessage", FAKE_KEY));
            log.info("fallback_applied", Map.of("errorMessage", FAKE_KEY));
            log.warn("validation_warning", Map.of());
        });
        assertEquals(1, stderr.lines().filter(line -> line.contains("Unable to write the fallback log")).count(), stderr);
        assertFalse(stderr.contains("DISTINCTIVE"), stderr);
    }

    @Test
    void noneDiscards() {
        FallbackLog.NONE.info("x", Map.of("selector", "a/b"));
        assertFalse(Files.exists(agentDir.resolve("logs")));
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
