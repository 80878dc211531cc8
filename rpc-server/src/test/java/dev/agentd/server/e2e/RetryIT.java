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
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §5 through the real process: retry events, state during the sleep, cancellation, persistence. */
class RetryIT {
    private static final String OVERLOADED = "{\"error\":\"529 {\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":"
            + "\\\"overloaded_error\\\",\\\"message\\\":\\\"Overloaded\\\"}}\",\"status\":529}";

    @TempDir
    Path dir;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
            assertEquals(List.of(), daemon.nonJsonLines());
        }
    }

    private void start(String script) throws IOException {
        Path agentDir = dir.resolve("agent");
        Files.createDirectories(agentDir);
        // keep the real-time waits short: base delay 100 ms
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":100}}");
        Path file = dir.resolve("script.json");
        Files.writeString(file, script);
        daemon = DaemonProcess.start(agentDir, dir, "--faux-script", file.toString());
    }

    @Test
    void retriedRunEmitsTheChainAndTheStateShowsIt() throws IOException {
        start("[" + OVERLOADED + "," + OVERLOADED + ",{\"text\":\"recovered\"}]");
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode start1 = daemon.awaitNth("auto_retry_start", 1);
        assertEquals(1, start1.path("attempt").asInt());
        Jittered.assertDelay(100, start1.path("delayMs").asLong(), "first backoff");
        assertEquals(3, start1.path("maxAttempts").asInt());
        JsonNode start2 = daemon.awaitNth("auto_retry_start", 2);
        Jittered.assertDelay(200, start2.path("delayMs").asLong(), "second backoff");
        JsonNode end = daemon.awaitNth("auto_retry_end", 1);
        assertTrue(end.path("success").asBoolean());
        assertEquals(2, end.path("attempt").asInt());
        daemon.awaitNth("agent_end", 3);
        List<JsonNode> agentEnds = daemon.records().stream()
                .filter(node -> "agent_end".equals(node.path("type").asText())).toList();
        assertEquals(List.of(true, true, false), agentEnds.stream().map(n -> n.path("willRetry").asBoolean()).toList());
    }

    @Test
    void abortRetryDuringTheSleepCancelsIt() throws IOException {
        start("[" + OVERLOADED + ",{\"text\":\"never\"}]");
        daemon.request(command("set_retry_settings", "r", "baseDelayMs", 60_000));
        daemon.send(command("prompt", "p", "message", "hi"));
        daemon.awaitNth("auto_retry_start", 1);
        JsonNode state = daemon.request(command("get_state", "s")).path("data");
        assertTrue(state.path("isRetrying").asBoolean());
        assertEquals(1, state.path("retryAttempt").asInt());
        assertFalse(state.path("isStreaming").asBoolean());
        JsonNode messages = daemon.request(command("get_messages", "m")).path("data").path("messages");
        assertEquals(1, messages.size(), "the failed reply left the working context");

        assertTrue(daemon.request(command("abort_retry", "ar")).path("success").asBoolean());
        JsonNode end = daemon.awaitNth("auto_retry_end", 1);
        assertFalse(end.path("success").asBoolean());
        assertEquals("Retry cancelled", end.path("finalError").asText());
        assertFalse(daemon.request(command("get_state", "s2")).path("data").path("isRetrying").asBoolean());
    }

    @Test
    void retryCommandRerunsAFailedTurnAndIsRefusedWhileARetrySleeps() throws IOException {
        // requests: two for the prompt's chain, one for the first retry, two for the second
        start("[" + OVERLOADED + "," + OVERLOADED + "," + OVERLOADED + "," + OVERLOADED
                + ",{\"text\":\"recovered\"}]");
        daemon.request(command("set_retry_settings", "r", "maxRetries", 1, "baseDelayMs", 10));
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode failed = daemon.awaitNth("auto_retry_end", 1);
        assertFalse(failed.path("success").asBoolean());
        daemon.awaitNth("agent_settled", 1);

        // The manual retry's request fails too: the normal policy retries it, from attempt 1.
        daemon.request(command("set_retry_settings", "r2", "baseDelayMs", 60_000));
        JsonNode accepted = daemon.request(command("retry", "again"));
        assertTrue(accepted.path("success").asBoolean(), accepted.toString());
        assertEquals("started", accepted.path("data").path("disposition").asText());
        JsonNode sleeping = daemon.awaitNth("auto_retry_start", 2);
        assertEquals(1, sleeping.path("attempt").asInt());
        JsonNode busy = daemon.request(command("retry", "busy"));
        assertFalse(busy.path("success").asBoolean());
        assertTrue(busy.path("error").asText().startsWith("Agent is already processing"), busy.toString());
        daemon.request(command("abort_retry", "ar"));
        daemon.awaitNth("agent_settled", 2);

        // Cancelled in its sleep, the turn is still unanswered: retry again, and this time it works.
        daemon.request(command("set_retry_settings", "r3", "baseDelayMs", 10));
        assertTrue(daemon.request(command("retry", "third")).path("success").asBoolean());
        JsonNode end = daemon.awaitNth("auto_retry_end", 3);
        assertTrue(end.path("success").asBoolean(), end.toString());
        daemon.awaitNth("agent_settled", 3);
        JsonNode messages = daemon.request(command("get_messages", "m")).path("data").path("messages");
        assertEquals(2, messages.size(), messages.toString());
        assertEquals("recovered", messages.get(1).path("content").get(0).path("text").asText());
        JsonNode nothing = daemon.request(command("retry", "none"));
        assertFalse(nothing.path("success").asBoolean());
        assertEquals("retry", nothing.path("command").asText());
    }

    @Test
    void retrySettingsAreReadableValidatedAndPersisted() throws IOException {
        start("[]");
        JsonNode settings = daemon.request(command("get_retry_settings", "g")).path("data");
        assertEquals(100, settings.path("baseDelayMs").asInt());
        assertEquals(3, settings.path("maxRetries").asInt());
        assertTrue(settings.path("enabled").asBoolean());
        JsonNode invalid = daemon.request(command("set_retry_settings", "bad", "maxRetries", -1));
        assertFalse(invalid.path("success").asBoolean());
        JsonNode updated = daemon.request(command("set_retry_settings", "ok", "maxRetries", 5));
        assertEquals(5, updated.path("data").path("maxRetries").asInt());
        assertTrue(daemon.request(command("set_auto_retry", "off", "enabled", false)).path("success").asBoolean());
        assertFalse(daemon.request(command("get_state", "s")).path("data").path("autoRetryEnabled").asBoolean());
        JsonNode onDisk = Json.mapper().readTree(Files.readString(dir.resolve("agent/settings.json")));
        assertEquals(5, onDisk.path("retry").path("maxRetries").asInt());
        assertFalse(onDisk.path("retry").path("enabled").asBoolean(true));
        assertEquals(100, onDisk.path("retry").path("baseDelayMs").asInt(), "existing keys are kept");
    }
}
