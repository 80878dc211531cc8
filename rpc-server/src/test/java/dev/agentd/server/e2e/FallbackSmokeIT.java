package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.http.FakeProviderServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model fallback through the real jar over real HTTP (FALLBACK §3, §7, §8): an OpenAI-completions
 * primary that keeps answering 503 falls back to an Anthropic-messages rung, which serves.
 */
class FallbackSmokeIT {
    private static final String KEY = "sk-agentd-fallback-0123456789abcdef";
    private static final String BUSY = "{\"error\":{\"message\":\"upstream busy\",\"type\":\"server_error\"}}";

    @TempDir
    Path dir;
    FakeProviderServer server;
    DaemonProcess daemon;
    Path agentDir;

    @BeforeEach
    void setUp() throws IOException {
        server = FakeProviderServer.start();
        agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{
                  "oa":{"baseUrl":"%1$s","api":"openai-completions","apiKey":"%2$s",
                    "models":[{"id":"oa-model","name":"OA","contextWindow":32000,"maxTokens":4096}]},
                  "an":{"baseUrl":"%1$s","api":"anthropic-messages","apiKey":"%2$s",
                    "models":[{"id":"an-model","name":"AN","contextWindow":32000,"maxTokens":4096}]}}}
                """.formatted(server.baseUrl(), KEY));
        Files.writeString(agentDir.resolve("settings.json"), """
                {"retry":{"maxRetries":1,"baseDelayMs":10,"fallbackChains":{"oa/oa-model":["an/an-model"]}}}
                """);
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        server.close();
    }

    @Test
    void aFailingPrimaryFallsBackToAProviderOfAnotherApi() throws Exception {
        server.enqueue(FakeProviderServer.json(503, BUSY, Map.of()), FakeProviderServer.json(503, BUSY, Map.of()),
                FakeProviderServer.sse(AnthropicWire.textReply("served by the rung")));
        daemon = DaemonProcess.start(agentDir, dir, "--model", "oa/oa-model");
        JsonNode state = daemon.request(command("get_fallback_state", "s0"));
        assertEquals(List.of("an/an-model"), List.of(state.path("data").path("chains").path("oa/oa-model").get(0)
                .asText()), state.toString());
        daemon.send(command("prompt", "p", "message", "hi"));

        JsonNode applied = daemon.awaitNth("retry_fallback_applied", 1);
        assertEquals("oa/oa-model", applied.path("from").asText());
        assertEquals("an/an-model", applied.path("to").asText());
        assertEquals("transient", applied.path("reason").asText());
        JsonNode succeeded = daemon.awaitNth("retry_fallback_succeeded", 1);
        assertEquals("an/an-model", succeeded.path("model").asText());
        JsonNode retryEnd = daemon.awaitNth("auto_retry_end", 1);
        assertTrue(retryEnd.path("success").asBoolean(), retryEnd.toString());
        daemon.awaitNth("agent_end", 3);

        List<FakeProviderServer.RecordedRequest> requests = server.requests();
        assertEquals(3, requests.size(), "1 + maxRetries on the primary, then the rung");
        assertEquals("/chat/completions", requests.get(0).path());
        assertTrue(requests.get(2).path().endsWith("/messages"), requests.get(2).path());
        List<String> types = daemon.types();
        assertTrue(types.indexOf("retry_fallback_applied") < types.lastIndexOf("auto_retry_start"), types.toString());
        JsonNode changed = daemon.awaitNth("model_changed", 1);
        assertEquals("fallback", changed.path("source").asText());
        JsonNode active = daemon.request(command("get_fallback_state", "s1")).path("data").path("active");
        assertEquals("oa/oa-model", active.path("originalSelector").asText(), active.toString());

        daemon.closeStdinAndWait();
        Path log = agentDir.resolve("logs").resolve("fallback.log");
        String written = Files.readString(log);
        assertTrue(written.contains("\"event\":\"fallback_applied\""), written);
        assertFalse(written.contains(KEY), "no secret in fallback.log");
        assertFalse(daemon.stderr().contains(KEY), "no secret on stderr");
        // the fallback model is never persisted as the default
        assertFalse(Files.readString(agentDir.resolve("settings.json")).contains("defaultModel"));
    }

    @Test
    void theEnvironmentDisablesSwitchingAndStartupReportsChainWarnings() throws Exception {
        Files.writeString(agentDir.resolve("settings.json"), """
                {"retry":{"maxRetries":0,"fallbackChains":{"oa/oa-model":["an/an-model","nope/missing-model"]}}}
                """);
        server.enqueue(FakeProviderServer.json(503, BUSY, Map.of()));
        daemon = DaemonProcess.start(agentDir, dir, Map.of("AGENTD_NO_FALLBACK", "1"), "--model", "oa/oa-model");
        JsonNode state = daemon.request(command("get_fallback_state", "s0")).path("data");
        assertFalse(state.path("enabled").asBoolean(), state.toString());
        assertTrue(state.path("warnings").toString().contains("nope/missing-model"), state.toString());
        daemon.send(command("prompt", "p", "message", "hi"));
        daemon.awaitNth("agent_end", 1);
        daemon.closeStdinAndWait();
        assertEquals(1, server.requestCount(), "no switch for this run");
        assertFalse(daemon.types().contains("retry_fallback_applied"));
        assertTrue(daemon.stderr().contains("nope/missing-model"), daemon.stderr());
        String log = Files.readString(agentDir.resolve("logs").resolve("fallback.log"));
        assertTrue(log.contains("\"event\":\"validation_warning\""), log);
    }
}
