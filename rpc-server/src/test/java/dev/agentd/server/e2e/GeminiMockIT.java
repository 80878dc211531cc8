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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockserver.matchers.Times;
import org.mockserver.model.Completion;
import org.mockserver.model.HttpRequest;
import org.mockserver.model.LlmChaosProfile;
import org.mockserver.model.Provider;
import org.mockserver.model.ToolUse;

/**
 * The google-generative-ai provider through the real jar against MockServer's own Gemini
 * encoding (a third party's reading of the wire format): a text reply, a tool round trip, and
 * its faults — a 429 whose retry-after is waited, a 503 and a stream cut mid-way, both retried.
 * Each scripted reply answers once, in order (Times.exactly(1)).
 */
class GeminiMockIT {
    private static final String KEY = "AIzaSyAgentdMockKey-0123456789abcdef";
    private static final String PATH = "/v1beta/models/gemini-2.5-flash:streamGenerateContent";

    @TempDir
    Path dir;
    MockLlm mock;
    DaemonProcess daemon;
    Path agentDir;

    @BeforeEach
    void setUp() throws IOException {
        mock = MockLlm.start();
        agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"google":{"baseUrl":"%s/v1beta","api":"google-generative-ai","apiKey":"%s",
                  "models":[{"id":"gemini-2.5-flash","name":"Gemini 2.5 Flash","contextWindow":1048576,
                             "maxTokens":65536}]}}}
                """.formatted(mock.baseUrl(), KEY));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":50}}");
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        mock.close();
    }

    private void then(Completion completion, LlmChaosProfile chaos) {
        var response = llmResponse().withProvider(Provider.GEMINI).withModel("gemini-2.5-flash")
                .withCompletion(completion.streaming());
        mock.server().when(request().withMethod("POST").withPath(PATH), Times.exactly(1))
                .respondWithLlm(chaos == null ? response : response.withChaos(chaos));
    }

    private void start() throws IOException {
        daemon = DaemonProcess.start(agentDir, dir, "--model", "google/gemini-2.5-flash");
    }

    private List<JsonNode> recordedBodies() throws IOException {
        List<JsonNode> bodies = new ArrayList<>();
        for (HttpRequest recorded : mock.server().retrieveRecordedRequests(request().withPath(PATH))) {
            assertEquals(KEY, recorded.getFirstHeader("x-goog-api-key"));
            assertEquals("sse", recorded.getFirstQueryStringParameter("alt"));
            bodies.add(Json.mapper().readTree(recorded.getBodyAsString()));
        }
        return bodies;
    }

    private static String lastText(JsonNode agentEnd) {
        JsonNode messages = agentEnd.path("messages");
        JsonNode content = messages.get(messages.size() - 1).path("content");
        return content.get(content.size() - 1).path("text").asText();
    }

    @Test
    void aTextReply() throws IOException {
        then(completion().withText("Hello from MockServer's Gemini"), null);
        start();
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        assertEquals("Hello from MockServer's Gemini", lastText(end), end.toString());
        JsonNode body = recordedBodies().get(0);
        assertEquals("hi", body.at("/contents/0/parts/0/text").asText());
        assertTrue(body.at("/systemInstruction/parts/0/text").asText().length() > 0);
    }

    @Test
    void aToolCallRoundTrip() throws IOException {
        Files.writeString(dir.resolve("a.txt"), "the file says hi\n");
        then(completion().withToolCall(ToolUse.toolUse("read").withArguments("{\"path\":\"a.txt\"}")), null);
        then(completion().withText("It says hi."), null);
        start();
        daemon.send(command("prompt", "p", "message", "read a.txt"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        assertEquals("It says hi.", lastText(end), end.toString());
        List<JsonNode> bodies = recordedBodies();
        assertEquals(2, bodies.size());
        JsonNode contents = bodies.get(1).path("contents");
        assertEquals("read", contents.at("/1/parts/0/functionCall/name").asText(), contents.toString());
        assertEquals("a.txt", contents.at("/1/parts/0/functionCall/args/path").asText());
        JsonNode response = contents.at("/2/parts/0/functionResponse");
        assertEquals("read", response.path("name").asText());
        assertTrue(response.at("/response/output").asText().contains("the file says hi"), response.toString());
    }

    @Test
    void a429WaitsItsRetryAfterThenSucceeds() throws IOException {
        then(completion().withText("x"), LlmChaosProfile.llmChaosProfile().withErrorKind("RATE_LIMIT")
                .withRetryAfter("2"));
        then(completion().withText("after the wait"), null);
        start();
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode retry = daemon.awaitNth("auto_retry_start", 1);
        assertTrue(retry.path("errorMessage").asText().startsWith("429 "), retry.toString());
        Jittered.assertDelay(2000, retry.path("delayMs").asLong(), retry.toString());
        assertTrue(daemon.awaitNth("auto_retry_end", 1).path("success").asBoolean());
        assertEquals("after the wait", lastText(daemon.awaitFinalAgentEnd(0)));
        assertEquals(2, recordedBodies().size());
    }

    @Test
    void a503AndAStreamCutMidWayAreRetried() throws IOException {
        then(completion().withText("x"), LlmChaosProfile.llmChaosProfile().withErrorKind("OVERLOAD"));
        then(completion().withText("a reply long enough to be cut somewhere in its middle"),
                LlmChaosProfile.llmChaosProfile().withTruncateMode(LlmChaosProfile.TruncateMode.MID_STREAM));
        then(completion().withText("whole at last"), null);
        start();
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode first = daemon.awaitNth("auto_retry_start", 1);
        assertTrue(first.path("errorMessage").asText().startsWith("503 "), first.toString());
        JsonNode second = daemon.awaitNth("auto_retry_start", 2);
        assertTrue(second.path("errorMessage").asText().contains("google-generative-ai stream ended"),
                second.toString());
        assertTrue(daemon.awaitNth("auto_retry_end", 1).path("success").asBoolean());
        assertEquals("whole at last", lastText(daemon.awaitFinalAgentEnd(0)));
        assertEquals(3, recordedBodies().size());
        assertFalse(String.join("\n", daemon.rawLines()).contains(KEY), "the key never reaches stdout");
    }
}
