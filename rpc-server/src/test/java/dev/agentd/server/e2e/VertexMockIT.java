package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockserver.model.Completion.completion;
import static org.mockserver.model.HttpLlmResponse.llmResponse;
import static org.mockserver.model.HttpRequest.request;
import static org.mockserver.model.HttpResponse.response;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.http.GoogleServiceAccount;
import dev.agentd.server.testing.mock.MockLlm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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
 * google-vertex through the real jar against MockServer's own Gemini and Anthropic encodings on
 * Vertex's paths, authenticated for real with Application Default Credentials: a service-account
 * key file made here whose token_uri is MockServer, which answers the JWT exchange. Gemini and
 * Claude replies, a tool round trip, a 429's retry-after, a 503 and a cut stream retried; the token
 * and the private key reach no output; an API key skips the token exchange and loads no Google
 * class; and a daemon without a Vertex model loads none either.
 */
class VertexMockIT {
    private static final String PROJECT = "agentd-proj";
    private static final String PREFIX = "/v1/projects/" + PROJECT + "/locations/us-east5/publishers/";
    private static final String GEMINI = PREFIX + "google/models/gemini-2.5-flash:streamGenerateContent";
    private static final String CLAUDE = PREFIX + "anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict";
    private static final String KEY = "AQ.Ab8RN6vertexMockItKey-0123456789";

    @TempDir
    Path dir;
    MockLlm mock;
    DaemonProcess daemon;
    Path agentDir;
    Path classLog;
    GoogleServiceAccount account;

    @BeforeEach
    void setUp() throws IOException {
        mock = MockLlm.start();
        agentDir = Files.createDirectories(dir.resolve("agent"));
        classLog = dir.resolve("classes.log");
        account = GoogleServiceAccount.create(mock.baseUrl() + "/token", "unused-sa-project");
        Files.writeString(dir.resolve("sa.json"), account.json());
        models(null);
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":50}}");
        mock.server().when(request().withMethod("POST").withPath("/token"))
                .respond(response().withStatusCode(200).withHeader("content-type", "application/json")
                        .withBody(GoogleServiceAccount.TOKEN_REPLY));
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        mock.close();
    }

    private void models(String apiKey) throws IOException {
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"google-vertex":{"baseUrl":"%s/v1","api":"google-vertex"%s,
                  "models":[{"id":"gemini-2.5-flash","name":"Gemini 2.5 Flash","contextWindow":1048576,
                             "maxTokens":65536},
                            {"id":"claude-sonnet-4-5@20250929","name":"Claude Sonnet 4.5","reasoning":true,
                             "contextWindow":200000,"maxTokens":64000}]}}}
                """.formatted(mock.baseUrl(), apiKey == null ? "" : ",\"apiKey\":\"" + apiKey + "\""));
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("GOOGLE_APPLICATION_CREDENTIALS", dir.resolve("sa.json").toString());
        env.put("GOOGLE_CLOUD_PROJECT", PROJECT);
        env.put("GOOGLE_CLOUD_LOCATION", "us-east5");
        env.put("GOOGLE_CLOUD_API_KEY", "");
        env.put("CLOUDSDK_CONFIG", dir.resolve("no-gcloud").toString());
        env.put("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classLog);
        return env;
    }

    private void start(String model) throws IOException {
        daemon = DaemonProcess.start(agentDir, dir, env(), "--model", "google-vertex/" + model);
    }

    private void then(String path, Provider codec, String model, Completion completion, LlmChaosProfile chaos) {
        var reply = llmResponse().withProvider(codec).withModel(model).withCompletion(completion.streaming());
        mock.server().when(request().withMethod("POST").withPath(path), Times.exactly(1))
                .respondWithLlm(chaos == null ? reply : reply.withChaos(chaos));
    }

    private void gemini(Completion completion, LlmChaosProfile chaos) {
        then(GEMINI, Provider.GEMINI, "gemini-2.5-flash", completion, chaos);
    }

    private HttpRequest[] recorded(String path) {
        return mock.server().retrieveRecordedRequests(request().withPath(path));
    }

    private List<JsonNode> bodies(String path) throws IOException {
        List<JsonNode> bodies = new ArrayList<>();
        for (HttpRequest sent : recorded(path)) {
            assertEquals("Bearer " + GoogleServiceAccount.TOKEN, sent.getFirstHeader("authorization"));
            bodies.add(Json.mapper().readTree(sent.getBodyAsString()));
        }
        return bodies;
    }

    private static String lastText(JsonNode agentEnd) {
        JsonNode messages = agentEnd.path("messages");
        JsonNode content = messages.get(messages.size() - 1).path("content");
        return content.get(content.size() - 1).path("text").asText();
    }

    /** The token and the key file's secrets appear in no output and no file agentd wrote. */
    private void assertNoSecretLeft() throws IOException {
        List<String> secrets = List.of(GoogleServiceAccount.TOKEN, account.keyLine());
        String out = String.join("\n", daemon.rawLines());
        String err = daemon.stderr();
        for (String secret : secrets) {
            assertFalse(out.contains(secret), "stdout");
            assertFalse(err.contains(secret), "stderr");
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(agentDir)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertTrue(files.stream().anyMatch(f -> f.toString().endsWith(".jsonl")), "a session file was written: " + files);
        for (Path file : files) {
            String text = Files.readString(file);
            for (String secret : secrets) {
                assertFalse(text.contains(secret), file.toString());
            }
        }
    }

    @Test
    void geminiOnVertexWithABearerTokenFromAServiceAccountKey() throws Exception {
        gemini(completion().withText("Hello from Vertex Gemini"), null);
        start("gemini-2.5-flash");
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        assertEquals("Hello from Vertex Gemini", lastText(end), end.toString());
        HttpRequest sent = recorded(GEMINI)[0];
        assertEquals("Bearer " + GoogleServiceAccount.TOKEN, sent.getFirstHeader("authorization"));
        assertEquals("sse", sent.getFirstQueryStringParameter("alt"));
        assertTrue(sent.getFirstHeader("x-goog-api-key").isEmpty());
        assertEquals("hi", Json.mapper().readTree(sent.getBodyAsString()).at("/contents/0/parts/0/text").asText());
        HttpRequest[] exchanges = recorded("/token");
        assertEquals(1, exchanges.length);
        assertTrue(exchanges[0].getBodyAsString().contains("assertion="), exchanges[0].getBodyAsString());
        daemon.closeStdinAndWait();
        assertNoSecretLeft();
        assertTrue(Files.readString(classLog).contains("com.google.auth.oauth2"),
                "the ADC request loaded the library (so the lazy-load checks can see it)");
    }

    @Test
    void claudeOnVertexTextThenAToolRoundTrip() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "the file says hi\n");
        then(CLAUDE, Provider.ANTHROPIC, "claude-sonnet-4-5", completion().withText("Hello from Vertex Claude"), null);
        then(CLAUDE, Provider.ANTHROPIC, "claude-sonnet-4-5", completion().withToolCall(ToolUse.toolUse("read")
                .withArguments("{\"path\":\"a.txt\"}")), null);
        then(CLAUDE, Provider.ANTHROPIC, "claude-sonnet-4-5", completion().withText("It says hi."), null);
        start("claude-sonnet-4-5@20250929");
        daemon.send(command("prompt", "p1", "message", "hi"));
        assertEquals("Hello from Vertex Claude", lastText(daemon.awaitNth("agent_end", 1)));
        daemon.send(command("prompt", "p2", "message", "read a.txt"));
        JsonNode end = daemon.awaitNth("agent_end", 2);
        assertEquals("It says hi.", lastText(end), end.toString());
        assertEquals("toolUse", end.path("messages").get(1).path("stopReason").asText(), end.toString());

        List<JsonNode> bodies = bodies(CLAUDE);
        assertEquals(3, bodies.size());
        for (JsonNode body : bodies) {
            assertEquals("vertex-2023-10-16", body.path("anthropic_version").asText(), body.toString());
            assertTrue(body.path("model").isMissingNode(), body.toString());
        }
        JsonNode third = bodies.get(2).path("messages");
        String callId = third.at("/3/content/0/id").asText();
        assertEquals("read", third.at("/3/content/0/name").asText(), third.toString());
        assertEquals(callId, third.at("/4/content/0/tool_use_id").asText(), third.toString());
        assertTrue(third.at("/4/content/0").toString().contains("the file says hi"), third.toString());
        daemon.closeStdinAndWait();
        assertNoSecretLeft();
    }

    @Test
    void a429WaitsItsRetryAfterThenSucceeds() throws Exception {
        gemini(completion().withText("x"), LlmChaosProfile.llmChaosProfile().withErrorKind("RATE_LIMIT")
                .withRetryAfter("2"));
        gemini(completion().withText("after the wait"), null);
        start("gemini-2.5-flash");
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode retry = daemon.awaitNth("auto_retry_start", 1);
        assertTrue(retry.path("errorMessage").asText().startsWith("429 "), retry.toString());
        Jittered.assertDelay(2000, retry.path("delayMs").asLong(), retry.toString());
        assertEquals("after the wait", lastText(daemon.awaitFinalAgentEnd(0)));
        assertEquals(2, bodies(GEMINI).size());
    }

    @Test
    void a503AndAStreamCutMidWayAreRetried() throws Exception {
        gemini(completion().withText("x"), LlmChaosProfile.llmChaosProfile().withErrorKind("OVERLOAD"));
        gemini(completion().withText("a reply long enough to be cut somewhere in its middle"),
                LlmChaosProfile.llmChaosProfile().withTruncateMode(LlmChaosProfile.TruncateMode.MID_STREAM));
        gemini(completion().withText("whole at last"), null);
        start("gemini-2.5-flash");
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode first = daemon.awaitNth("auto_retry_start", 1);
        assertTrue(first.path("errorMessage").asText().startsWith("503 "), first.toString());
        JsonNode second = daemon.awaitNth("auto_retry_start", 2);
        assertTrue(second.path("errorMessage").asText().contains("google-vertex stream ended"), second.toString());
        assertEquals("whole at last", lastText(daemon.awaitFinalAgentEnd(0)));
        assertEquals(3, bodies(GEMINI).size());
        assertEquals(1, recorded("/token").length, "one token serves every attempt");
    }

    @Test
    void anApiKeyGoesInTheHeaderAndLoadsNoGoogleClass() throws Exception {
        models(KEY);
        gemini(completion().withText("keyed"), null);
        start("gemini-2.5-flash");
        daemon.send(command("prompt", "p", "message", "hi"));
        assertEquals("keyed", lastText(daemon.awaitNth("agent_end", 1)));
        HttpRequest sent = recorded(GEMINI)[0];
        assertEquals(KEY, sent.getFirstHeader("x-goog-api-key"));
        assertTrue(sent.getFirstHeader("authorization").isEmpty());
        assertFalse(sent.getPath().getValue().contains(KEY) || String.valueOf(sent.getQueryStringParameters())
                .contains(KEY), "never in the URL");
        assertEquals(0, recorded("/token").length);
        assertEquals(0, daemon.closeStdinAndWait());
        assertFalse(Files.readString(classLog).contains("com.google.auth"), "an API key needs no Google library");
    }

    @Test
    void aDaemonWithoutAVertexModelLoadsNoGoogleClass() throws Exception {
        Path fauxLog = dir.resolve("faux-classes.log");
        Map<String, String> env = env();
        env.put("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + fauxLog);
        try (DaemonProcess faux = DaemonProcess.start(Files.createDirectories(dir.resolve("agent-faux")), dir, env,
                "--no-session")) {
            faux.awaitNth("ready", 1);
            assertTrue(faux.request(command("get_state", "s")).path("success").asBoolean());
            assertTrue(faux.request(command("get_available_models", "m")).path("success").asBoolean());
            assertEquals(0, faux.closeStdinAndWait());
        }
        String log = Files.readString(fauxLog);
        assertTrue(log.contains("dev.agentd.server.ai.vertex.VertexProvider"), "the provider is registered");
        assertFalse(log.contains("com.google.auth"), "a Google auth class was loaded without a Vertex request");
        assertFalse(log.contains("com.google.common"), "nor Guava");
        assertFalse(log.contains("com.google.api.client"), "nor the Google HTTP client");
    }
}
