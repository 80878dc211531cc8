package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.HttpRequest.request;
import static org.mockserver.model.HttpResponse.response;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.mock.MockLlm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockserver.model.Header;
import org.mockserver.model.HttpRequest;

/**
 * Quota before the wall (issue 27 point 4) through the real jar: MockServer answers the Messages
 * API with a successful stream carrying Anthropic's real rate-limit headers (the standard request
 * window and the unified 5h/7d windows). get_state shows them per selector, rate_limit_update
 * announces the crossed threshold once, and with {@code retry.preemptiveSwitchAt} the next turn
 * starts on the chain's next rung — and stays there while the primary is still hot.
 */
class RateLimitIT {
    private static final String KEY = "sk-ant-ratelimit-it-0123456789abcdef";
    private static final String PATH = "/v1/messages";
    private static final String PRIMARY = "mock/mock-model";
    private static final String SPARE = "mock/mock-spare";

    @TempDir
    Path dir;
    MockLlm mock;
    DaemonProcess daemon;
    Path agentDir;
    long resetEpochSeconds;

    @BeforeEach
    void setUp() throws IOException {
        mock = MockLlm.start();
        agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"mock":{"baseUrl":"%s","api":"anthropic-messages","apiKey":"%s",
                  "models":[{"id":"mock-model","contextWindow":200000,"maxTokens":8192},
                            {"id":"mock-spare","contextWindow":200000,"maxTokens":8192}]}}}
                """.formatted(mock.baseUrl(), KEY));
        resetEpochSeconds = System.currentTimeMillis() / 1000 + 3 * 3600;
        mock.server().when(request().withMethod("POST").withPath(PATH)).respond(response().withStatusCode(200)
                .withHeader(new Header("content-type", "text/event-stream"))
                .withHeader(new Header("request-id", "req_011CSHoEeqs5C35K2UUqR7Fy"))
                .withHeader(new Header("anthropic-ratelimit-requests-limit", "50"))
                .withHeader(new Header("anthropic-ratelimit-requests-remaining", "49"))
                .withHeader(new Header("anthropic-ratelimit-requests-reset", "2099-01-01T00:00:07Z"))
                .withHeader(new Header("anthropic-ratelimit-unified-status", "allowed_warning"))
                .withHeader(new Header("anthropic-ratelimit-unified-representative-claim", "five_hour"))
                .withHeader(new Header("anthropic-ratelimit-unified-5h-status", "allowed_warning"))
                .withHeader(new Header("anthropic-ratelimit-unified-5h-reset", Long.toString(resetEpochSeconds)))
                .withHeader(new Header("anthropic-ratelimit-unified-5h-utilization", "0.86"))
                .withHeader(new Header("anthropic-ratelimit-unified-7d-status", "allowed"))
                .withHeader(new Header("anthropic-ratelimit-unified-7d-reset",
                        Long.toString(resetEpochSeconds + 86_400)))
                .withHeader(new Header("anthropic-ratelimit-unified-7d-utilization", "0.42"))
                .withBody(String.join("", AnthropicWire.textReply("within ", "quota"))));
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        mock.close();
    }

    private void start(String settings) throws IOException {
        Files.writeString(agentDir.resolve("settings.json"), settings);
        daemon = DaemonProcess.start(agentDir, dir, "--model", PRIMARY, "--no-session");
        daemon.awaitNth("ready", 1);
    }

    private List<JsonNode> prompt(String id) throws IOException {
        int from = daemon.records().size();
        daemon.send(command("prompt", id, "message", "hi"));
        JsonNode end = daemon.awaitFinalAgentEnd(from);
        List<JsonNode> all = daemon.records();
        return List.copyOf(all.subList(from, all.indexOf(end) + 1));
    }

    private static List<JsonNode> of(List<JsonNode> records, String type) {
        return records.stream().filter(r -> type.equals(r.path("type").asText())).toList();
    }

    private List<String> requestedModels() throws IOException {
        List<String> models = new ArrayList<>();
        for (HttpRequest recorded : mock.server().retrieveRecordedRequests(request().withPath(PATH))) {
            models.add(Json.mapper().readTree(recorded.getBodyAsString()).path("model").asText());
        }
        return models;
    }

    @Test
    void aSuccessfulRepliesHeadersAppearInGetStateAndAsOneEventPerCrossing() throws IOException {
        start("{}");
        JsonNode before = daemon.request(command("get_state", "s0")).path("data");
        assertTrue(before.path("rateLimits").isMissingNode(), "no reply yet, no figures: " + before);

        List<JsonNode> first = prompt("p1");
        List<JsonNode> updates = of(first, "rate_limit_update");
        assertEquals(1, updates.size(), "0 → 86 % is one event, at the highest threshold crossed: " + updates);
        JsonNode update = updates.get(0);
        assertEquals(PRIMARY, update.path("selector").asText());
        assertEquals(0.8, update.path("threshold").asDouble());
        assertEquals(0.86, update.path("utilization").asDouble());
        assertEquals(0.86, update.path("limits").path("windows").path("5h").path("utilization").asDouble());

        JsonNode limits = daemon.request(command("get_state", "s1")).path("data").path("rateLimits");
        assertEquals(1, limits.size(), limits.toString());
        JsonNode mine = limits.get(0);
        assertEquals(PRIMARY, mine.path("selector").asText());
        assertEquals("allowed_warning", mine.path("status").asText());
        assertEquals(0.86, mine.path("utilization").asDouble());
        JsonNode fiveHours = mine.path("windows").path("5h");
        assertEquals(0.86, fiveHours.path("utilization").asDouble());
        assertEquals(resetEpochSeconds * 1000, fiveHours.path("resetAt").asLong());
        assertEquals("allowed_warning", fiveHours.path("status").asText());
        assertEquals(0.42, mine.path("windows").path("7d").path("utilization").asDouble());
        assertEquals(50, mine.path("requests").path("limit").asLong());
        assertEquals(49, mine.path("requests").path("remaining").asLong());
        assertEquals(4_070_908_807_000L, mine.path("requests").path("resetAt").asLong());

        List<JsonNode> second = prompt("p2");
        assertEquals(List.of(), of(second, "rate_limit_update"), "80 % was announced already");
        assertEquals(List.of(), of(second, "retry_fallback_applied"), "the pre-emptive switch is off by default");
        assertEquals(List.of("mock-model", "mock-model"), requestedModels());
    }

    @Test
    void aPrimaryAboveThePreemptiveThresholdIsLeftBeforeTheNextTurnAndNotRevertedTo() throws IOException {
        start("""
                {"retry":{"preemptiveSwitchAt":0.85,"fallbackChains":{"mock/mock-model":["mock/mock-spare"]}}}""");
        List<JsonNode> first = prompt("p1");
        assertEquals(List.of(), of(first, "retry_fallback_applied"), "no figures before the first reply");

        List<JsonNode> second = prompt("p2");
        List<JsonNode> applied = of(second, "retry_fallback_applied");
        assertEquals(1, applied.size(), second.toString());
        assertEquals(PRIMARY, applied.get(0).path("from").asText());
        assertEquals(SPARE, applied.get(0).path("to").asText());
        assertEquals("quota", applied.get(0).path("reason").asText());
        assertEquals(1, of(second, "model_changed").size());
        assertEquals(List.of(), of(second, "auto_retry_start"), "a switch before the turn, not a retry");
        JsonNode logged = null;
        for (String line : Files.readAllLines(agentDir.resolve("logs").resolve("fallback.log"))) {
            JsonNode record = Json.mapper().readTree(line);
            if (record.path("event").asText().equals("preemptive_switch")) {
                logged = record;
            }
        }
        assertTrue(logged != null, "fallback.log records the decision");
        assertEquals(0.86, logged.path("utilization").asDouble());
        assertEquals(0.85, logged.path("threshold").asDouble());
        assertEquals(SPARE, logged.path("to").asText());

        List<JsonNode> third = prompt("p3");
        assertEquals(List.of(), of(third, "retry_fallback_reverted"), "the primary is still at 86 %");
        assertEquals(List.of(), of(third, "retry_fallback_applied"), "the spare is hot too, and the last rung");
        assertEquals(List.of("mock-model", "mock-spare", "mock-spare"), requestedModels());
        JsonNode limits = daemon.request(command("get_state", "s")).path("data").path("rateLimits");
        assertEquals(List.of(PRIMARY, SPARE), List.of(limits.get(0).path("selector").asText(),
                limits.get(1).path("selector").asText()));
    }
}
