package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wire parity with pi 0.73 through the real agentd.jar (SPEC §3.3–3.4, §8.2): compaction events
 * and outcomes, one answer per prompt, ids echoed as sent, and the queue, thinking-level and
 * session-name events.
 */
class PiWireIT {
    private static final String OVERFLOW = "400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
            + "\"message\":\"prompt is too long: 213462 tokens > 200000 maximum\"}}";

    @TempDir
    Path dir;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
            assertEquals(List.of(), daemon.nonJsonLines(), "every stdout line must be a JSON object");
            assertEquals(Map.of(), answeredMoreThanOnce(), "one response per id");
        }
    }

    private void start(String script) throws IOException {
        Path agentDir = dir.resolve("agent");
        Files.createDirectories(agentDir);
        Path file = dir.resolve("script.json");
        Files.writeString(file, script);
        daemon = DaemonProcess.start(agentDir, dir, "--no-session", "--faux-script", file.toString());
    }

    private Map<String, Integer> answeredMoreThanOnce() {
        Map<String, Integer> counts = new HashMap<>();
        for (JsonNode record : daemon.records()) {
            if ("response".equals(record.path("type").asText()) && record.path("id").isTextual()) {
                counts.merge(record.path("id").asText(), 1, Integer::sum);
            }
        }
        counts.values().removeIf(count -> count == 1);
        return counts;
    }

    private List<JsonNode> events(String type) {
        return daemon.records().stream().filter(node -> type.equals(node.path("type").asText())).toList();
    }

    private int indexOf(JsonNode record) {
        List<JsonNode> all = daemon.records();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i) == record) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void anOverflowOnAShortHistoryCompactsAndContinuesThenCompactEmitsManualEvents() throws IOException {
        // default keepRecentTokens (20000): the window would keep everything, so the cut moves forward
        start("[{\"text\":\"a1\"},{\"error\":" + Json.mapper().writeValueAsString(OVERFLOW) + ",\"status\":400},"
                + "{\"text\":\"summary of q1\"},{\"text\":\"a2\"},{\"text\":\"a3\"},{\"text\":\"manual summary\"}]");
        assertTrue(daemon.request(command("prompt", "p1", "message", "q1")).path("success").asBoolean());
        daemon.awaitNth("agent_end", 1);
        assertTrue(daemon.request(command("prompt", "p2", "message", "q2")).path("success").asBoolean());
        daemon.awaitNth("agent_end", 3);

        JsonNode start = daemon.awaitNth("compaction_start", 1);
        assertEquals("overflow", start.path("reason").asText());
        JsonNode end = daemon.awaitNth("compaction_end", 1);
        assertEquals("overflow", end.path("reason").asText());
        assertTrue(end.path("willRetry").asBoolean(), end.toString());
        assertFalse(end.path("aborted").asBoolean());
        assertFalse(end.has("errorMessage"), end.toString());
        assertEquals("summary of q1", end.path("result").path("summary").asText());
        assertEquals("{\"readFiles\":[],\"modifiedFiles\":[]}", end.path("result").path("details").toString());
        assertEquals(List.of(), events("auto_compaction_start"), "pi 0.73's names only");
        assertEquals("a2", daemon.request(command("get_last_assistant_text", "t")).path("data").path("text").asText());

        assertTrue(daemon.request(command("prompt", "p3", "message", "q3")).path("success").asBoolean());
        daemon.awaitNth("agent_end", 4);
        JsonNode compacted = daemon.request(command("compact", "c"));
        assertTrue(compacted.path("success").asBoolean(), compacted.toString());
        assertEquals("manual summary", compacted.path("data").path("summary").asText());
        assertTrue(compacted.path("data").has("details"), compacted.toString());
        JsonNode manualStart = daemon.awaitNth("compaction_start", 2);
        JsonNode manualEnd = daemon.awaitNth("compaction_end", 2);
        assertEquals("manual", manualStart.path("reason").asText());
        assertEquals("manual", manualEnd.path("reason").asText());
        assertEquals(compacted.path("data"), manualEnd.path("result"));
        assertTrue(indexOf(manualStart) < indexOf(manualEnd) && indexOf(manualEnd) < indexOf(compacted),
                "the events come before the response");
    }

    @Test
    void anOverflowWithNothingToSummarizeSaysSo() throws IOException {
        start("[{\"error\":" + Json.mapper().writeValueAsString(OVERFLOW) + ",\"status\":400}]");
        daemon.request(command("prompt", "p1", "message", "q1"));
        JsonNode end = daemon.awaitNth("compaction_end", 1);
        assertEquals("overflow", end.path("reason").asText());
        assertFalse(end.path("willRetry").asBoolean());
        assertTrue(end.path("errorMessage").asText().startsWith("Context overflow recovery failed"), end.toString());
    }

    @Test
    void idsAreEchoedExactlyAsSent() throws IOException {
        start("[]");
        daemon.send("{\"type\":\"get_state\",\"id\":5}");
        daemon.send("{\"type\":\"get_state\",\"id\":-1.5}");
        daemon.send("{\"type\":\"get_state\",\"id\":null}");
        daemon.send("{\"type\":\"no_such\",\"id\":7}");
        daemon.send("{\"type\":\"get_state\",\"id\":true}");
        daemon.send("{\"type\":\"get_state\",\"id\":{\"n\":1}}");
        daemon.send("{\"type\":\"get_state\",\"id\":42,"); // broken JSON: the id is recovered as a number
        daemon.request(command("get_state", "last"));
        List<JsonNode> responses = daemon.records().stream()
                .filter(node -> "response".equals(node.path("type").asText())).toList();
        assertEquals(8, responses.size(), responses.toString());
        List<String> ids = new ArrayList<>();
        for (JsonNode response : responses) {
            ids.add(response.get("id") == null ? "absent" : response.get("id").toString());
        }
        assertEquals(List.of("5", "-1.5", "null", "7", "true", "{\"n\":1}", "42", "\"last\""), ids);
        assertEquals("parse", responses.get(6).path("command").asText());
        assertTrue(responses.get(0).path("success").asBoolean());
        assertTrue(responses.get(2).path("success").asBoolean());
        assertEquals("Unknown command: no_such", responses.get(3).path("error").asText());
        assertTrue(responses.get(4).path("error").asText().contains("'id'"), responses.get(4).toString());
        assertTrue(daemon.rawLines().stream().anyMatch(line -> line.startsWith("{\"id\":5,\"type\":\"response\"")),
                "the id comes first, as on every response");
    }

    @Test
    void queueThinkingAndSessionNameChangesAreAnnounced() throws IOException {
        start("[{\"text\":\"reply\"}]");
        daemon.request(command("steer", "s", "message", "steer me"));
        daemon.request(command("follow_up", "f", "message", "later"));
        daemon.request(command("clear_queue", "c"));
        daemon.request(command("set_thinking_level", "t1", "level", "high"));
        daemon.request(command("set_thinking_level", "t2", "level", "high")); // no change
        daemon.request(command("set_model", "m", "provider", "faux", "modelId", "faux-2")); // clamps to off
        daemon.request(command("set_session_name", "n", "name", "  my session "));
        daemon.request(command("follow_up", "f2", "message", "queued while idle"));
        assertTrue(daemon.request(command("prompt", "p", "message", "go")).path("success").asBoolean());
        daemon.awaitNth("agent_end", 1);
        daemon.request(command("get_state", "done"));

        List<String> queues = events("queue_update").stream()
                .map(node -> node.path("steering") + "/" + node.path("followUp")).toList();
        assertEquals(List.of("[\"steer me\"]/[]", "[\"steer me\"]/[\"later\"]", "[]/[]", "[]/[\"queued while idle\"]",
                "[]/[]"), queues, "queued, cleared, queued, delivered");
        assertEquals(List.of("high", "off"), events("thinking_level_changed").stream()
                .map(node -> node.path("level").asText()).toList());
        assertEquals(List.of("my session"), events("session_info_changed").stream()
                .map(node -> node.path("name").asText()).toList());
    }
}
