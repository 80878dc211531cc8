package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.Completion.completion;
import static org.mockserver.model.HttpLlmResponse.llmResponse;
import static org.mockserver.model.HttpRequest.request;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.mock.MockLlm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockserver.matchers.Times;
import org.mockserver.model.HttpLlmResponse;
import org.mockserver.model.HttpRequest;
import org.mockserver.model.LlmChaosProfile;
import org.mockserver.model.Provider;
import org.mockserver.model.ToolUse;
import org.mockserver.model.Usage;

/**
 * openai-responses and azure-openai-responses through the real jar against MockServer's own
 * encoding of the Responses stream (which has no content_part events, no call_id and no output in
 * response.completed) and its faults: a text reply, a tool call round trip, a 429 whose
 * retry-after is the announced wait, a 503 and a stream cut mid-way, each retried once.
 */
class ResponsesMockServerIT {
    private static final String KEY = "sk-responses-it-0123456789abcdef";

    @TempDir
    Path dir;
    MockLlm mock;
    DaemonProcess daemon;

    @BeforeEach
    void setUp() {
        mock = MockLlm.start();
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        mock.close();
    }

    private DaemonProcess start(String provider, String api, String baseUrl, String model) throws IOException {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"%s":{"baseUrl":"%s","api":"%s","apiKey":"%s",
                  "models":[{"id":"%s","reasoning":true,"contextWindow":400000,"maxTokens":128000,
                    "cost":{"input":1.25,"output":10,"cacheRead":0.125,"cacheWrite":0}}]}}}
                """.formatted(provider, baseUrl, api, KEY, model));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":50,\"maxRetries\":3}}");
        DaemonProcess started = DaemonProcess.start(agentDir, dir, "--no-session", "--model", provider + "/" + model);
        started.awaitNth("ready", 1);
        return started;
    }

    private static HttpLlmResponse text(String text) {
        return llmResponse().withProvider(Provider.OPENAI_RESPONSES).withModel("gpt-5").withCompletion(completion()
                .withText(text).withUsage(Usage.usage().withInputTokens(100).withOutputTokens(20)
                        .withCachedInputTokens(40)).streaming());
    }

    private static HttpLlmResponse fault(LlmChaosProfile chaos) {
        return text("never shown").withChaos(chaos);
    }

    private HttpRequest responses() {
        return request().withMethod("POST").withPath("/v1/responses");
    }

    private List<JsonNode> recordedBodies() {
        return Arrays.stream(mock.server().retrieveRecordedRequests(responses()))
                .map(recorded -> {
                    try {
                        return Json.mapper().readTree(recorded.getBodyAsString());
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }).toList();
    }

    @Test
    void aTextReplyThenAToolCallRoundTrip() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "alpha beta");
        mock.server().when(responses(), Times.exactly(1)).respondWithLlm(text("Hello from Responses."));
        mock.server().when(responses(), Times.exactly(1)).respondWithLlm(llmResponse()
                .withProvider(Provider.OPENAI_RESPONSES).withModel("gpt-5").withCompletion(completion()
                        .withToolCall(ToolUse.toolUse("read").withId("call_1").withArguments("{\"path\":\"a.txt\"}"))
                        .streaming()));
        mock.server().when(responses()).respondWithLlm(text("The file says alpha beta."));
        daemon = start("openai", "openai-responses", mock.baseUrl() + "/v1", "gpt-5");

        daemon.send(command("prompt", "p1", "message", "hi"));
        JsonNode first = daemon.awaitNth("agent_end", 1).path("messages").get(1);
        assertEquals("Hello from Responses.", first.path("content").get(0).path("text").asText(), first.toString());
        assertEquals("openai-responses", first.path("api").asText());
        assertEquals(60, first.path("usage").path("input").asInt());
        assertEquals(40, first.path("usage").path("cacheRead").asInt());

        daemon.send(command("prompt", "p2", "message", "read a.txt"));
        JsonNode messages = daemon.awaitNth("agent_end", 2).path("messages");
        JsonNode call = messages.get(1).path("content").get(0);
        assertEquals("read", call.path("name").asText(), messages.toString());
        assertEquals("toolUse", messages.get(1).path("stopReason").asText());
        assertEquals("The file says alpha beta.", messages.get(3).path("content").get(0).path("text").asText());

        List<JsonNode> bodies = recordedBodies();
        assertEquals(3, bodies.size());
        JsonNode input = bodies.get(2).path("input");
        JsonNode output = input.get(input.size() - 1);
        assertEquals("function_call_output", output.path("type").asText(), input.toString());
        assertEquals(call.path("id").asText().split("\\|")[0], output.path("call_id").asText());
        assertTrue(output.path("output").asText().contains("alpha beta"), output.toString());
        JsonNode functionCall = input.get(input.size() - 2);
        assertEquals(output.path("call_id").asText(), functionCall.path("call_id").asText());
        assertEquals("{\"path\":\"a.txt\"}", functionCall.path("arguments").asText());
        assertFalse(bodies.get(0).path("store").asBoolean(true));
        assertEquals(List.of("Bearer " + KEY), Arrays.stream(mock.server().retrieveRecordedRequests(responses()))
                .map(recorded -> recorded.getFirstHeader("authorization")).distinct().toList());
    }

    @Test
    void a429ItsRetryAfterA503AndAMidStreamCutAreEachRetried() throws Exception {
        mock.server().when(responses(), Times.exactly(1)).respondWithLlm(fault(LlmChaosProfile.llmChaosProfile()
                .withErrorKind("RATE_LIMIT").withRetryAfter("1")));
        mock.server().when(responses(), Times.exactly(1)).respondWithLlm(text("after the 429"));
        mock.server().when(responses(), Times.exactly(1)).respondWithLlm(fault(LlmChaosProfile.llmChaosProfile()
                .withErrorKind("OVERLOAD")));
        mock.server().when(responses(), Times.exactly(1)).respondWithLlm(text("after the 503"));
        mock.server().when(responses(), Times.exactly(1)).respondWithLlm(text("cut short somewhere in the middle")
                .withChaos(LlmChaosProfile.llmChaosProfile().withTruncateMode(LlmChaosProfile.TruncateMode.MID_STREAM)
                        .withSeed(7L)));
        mock.server().when(responses()).respondWithLlm(text("after the cut"));
        daemon = start("openai", "openai-responses", mock.baseUrl() + "/v1", "gpt-5");

        String[] expected = {"after the 429", "after the 503", "after the cut"};
        for (int i = 0; i < expected.length; i++) {
            int from = daemon.records().size();
            daemon.send(command("prompt", "p" + i, "message", "attempt " + i));
            JsonNode end = daemon.awaitFinalAgentEnd(from);
            JsonNode start = daemon.awaitNth("auto_retry_start", i + 1);
            JsonNode retryEnd = daemon.awaitNth("auto_retry_end", i + 1);
            assertTrue(retryEnd.path("success").asBoolean(), retryEnd.toString());
            daemon.awaitIdle("idle" + i);
            JsonNode messages = end.path("messages");
            assertEquals(expected[i], messages.get(messages.size() - 1).path("content").get(0).path("text").asText(),
                    end.toString());
            switch (i) {
                case 0 -> {
                    assertTrue(start.path("errorMessage").asText().startsWith("429 "), start.toString());
                    Jittered.assertDelay(1000, start.path("delayMs").asLong(), "the announced wait is the server's hint");
                }
                case 1 -> assertTrue(start.path("errorMessage").asText().startsWith("503 "), start.toString());
                default -> assertTrue(start.path("errorMessage").asText().contains("response.completed"),
                        start.toString());
            }
        }
        assertEquals(6, recordedBodies().size(), "one request per attempt");
        assertEquals(List.of(), daemon.nonJsonLines());
    }

    @Test
    void azureUsesTheSameCodecOnItsPathWithAnApiKeyHeader() throws Exception {
        HttpRequest azurePath = request().withMethod("POST").withPath("/openai/v1/responses")
                .withQueryStringParameter("api-version", "v1").withHeader("api-key", KEY);
        mock.server().when(azurePath).respondWithLlm(text("Hello from Azure."));
        daemon = start("azure", "azure-openai-responses", mock.baseUrl() + "/openai/v1", "my-deployment");

        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode reply = daemon.awaitNth("agent_end", 1).path("messages").get(1);

        assertEquals("Hello from Azure.", reply.path("content").get(0).path("text").asText(), reply.toString());
        assertEquals("azure-openai-responses", reply.path("api").asText());
        org.mockserver.model.HttpRequest[] recorded = mock.server().retrieveRecordedRequests(azurePath);
        assertEquals(1, recorded.length);
        assertFalse(recorded[0].containsHeader("authorization"));
        assertEquals("my-deployment", Json.mapper().readTree(recorded[0].getBodyAsString()).path("model").asText());
    }
}
