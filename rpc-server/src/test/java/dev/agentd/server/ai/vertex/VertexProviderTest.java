package dev.agentd.server.ai.vertex;

import static dev.agentd.server.testing.http.FakeProviderServer.json;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.ai.http.StreamingExchange;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.KnownSecrets;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.GoogleServiceAccount;
import dev.agentd.server.testing.http.RecordingListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The google-vertex provider against a fake server: the URL and body of each publisher, which
 * credential goes in which header (an API key, or a Bearer token from a service-account file whose
 * token exchange the fake server answers), the project and credential errors, and how Google's
 * and Anthropic's error bodies classify.
 */
class VertexProviderTest {
    static final String KEY = "AQ.Ab8RN6KvertexTestKey-0123456789";
    static final String GEMINI_TEXT = "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":"
            + "\"Hi from Vertex\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":5,"
            + "\"candidatesTokenCount\":3,\"totalTokenCount\":8},\"modelVersion\":\"gemini-2.5-flash\"}\r\n\r\n";
    /** Vertex's 429 for dynamic shared quota, as it is sent (no RetryInfo). */
    static final String SHARED_QUOTA_429 = "{\"error\":{\"code\":429,\"message\":\"Resource exhausted. Please try "
            + "again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for "
            + "more details.\",\"status\":\"RESOURCE_EXHAUSTED\"}}";

    @TempDir
    Path dir;
    FakeProviderServer server;
    SystemScheduler scheduler;
    Map<String, String> env = new HashMap<>();

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        env.put("GOOGLE_CLOUD_PROJECT", "agentd-proj");
        env.put("GOOGLE_CLOUD_LOCATION", "us-east5");
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    VertexProvider provider() {
        HttpReplyStreamer streamer = new HttpReplyStreamer(new StreamingExchange(new LazyHttpClient(), scheduler),
                scheduler, () -> new ProviderTimeouts(5_000, 5_000, 5_000));
        return new VertexProvider(streamer, env::get, dir.resolve("home").toString());
    }

    Model model(String id) {
        return new Model(id, id, VertexProvider.API, "google-vertex", server.baseUrl() + "/v1", true,
                List.of("text", "image"), new Model.Cost(3, 15, 0.3, 3.75), 200_000, 64_000);
    }

    AgentMessage.Assistant send(String modelId, String apiKey) {
        List<AgentMessage> hi = List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1));
        return provider().stream(new StreamRequest(model(modelId), "Be brief.", hi, List.of(), ThinkingLevel.OFF,
                apiKey, Map.of(), "s"), new RecordingListener(), CancellationToken.none());
    }

    static ErrorClass classify(AgentMessage.Assistant reply) {
        return ErrorClassifier.classify(reply, 200_000).errorClass();
    }

    @Test
    void geminiGoesToStreamGenerateContentWithGeminisBodyAndTheKeyInAHeader() {
        server.enqueue(sse(List.of(GEMINI_TEXT)));
        AgentMessage.Assistant reply = send("gemini-2.5-flash", KEY);
        assertEquals(StopReason.STOP, reply.stopReason(), reply.errorMessage());
        assertEquals("Hi from Vertex", ((ContentBlock.Text) reply.content().get(0)).text());
        FakeProviderServer.RecordedRequest request = server.lastRequest();
        assertEquals("/v1/projects/agentd-proj/locations/us-east5/publishers/google/models/gemini-2.5-flash"
                + ":streamGenerateContent?alt=sse", request.target());
        assertEquals(KEY, request.header("x-goog-api-key"));
        assertNull(request.header("authorization"));
        assertFalse(request.target().contains(KEY), "never in the URL");
        JsonNode body = request.json();
        assertEquals("hi", body.at("/contents/0/parts/0/text").asText(), body.toString());
        assertEquals("Be brief.", body.at("/systemInstruction/parts/0/text").asText());
        assertEquals("google-vertex", reply.api());
    }

    @Test
    void claudeGoesToStreamRawPredictWithTheMessagesBodyLessModelPlusAnthropicVersion() {
        server.enqueue(sse(AnthropicWire.textReply("Hello ", "from Claude")));
        env.put("GOOGLE_CLOUD_API_KEY", KEY);
        AgentMessage.Assistant reply = send("claude-sonnet-4-5@20250929", null);
        assertEquals(StopReason.STOP, reply.stopReason(), reply.errorMessage());
        assertEquals("Hello from Claude", ((ContentBlock.Text) reply.content().get(0)).text());
        FakeProviderServer.RecordedRequest request = server.lastRequest();
        assertEquals("/v1/projects/agentd-proj/locations/us-east5/publishers/anthropic/models/"
                + "claude-sonnet-4-5@20250929:streamRawPredict", request.target());
        assertEquals(KEY, request.header("x-goog-api-key"), "GOOGLE_CLOUD_API_KEY when the request has none");
        assertNull(request.header("x-api-key"));
        assertNull(request.header("anthropic-version"));
        JsonNode body = request.json();
        assertEquals("vertex-2023-10-16", body.path("anthropic_version").asText(), body.toString());
        assertTrue(body.path("model").isMissingNode(), body.toString());
        assertTrue(body.path("stream").asBoolean());
        assertTrue(body.path("max_tokens").asLong() > 0);
        assertEquals("hi", body.at("/messages/0/content/0/text").asText(), body.toString());
    }

    @Test
    void withoutAKeyTheServiceAccountFileGivesABearerTokenAndItsProject() throws Exception {
        env.remove("GOOGLE_CLOUD_PROJECT");
        GoogleServiceAccount account = GoogleServiceAccount.create(server.baseUrl() + "/token", "sa-project");
        Path file = Files.writeString(dir.resolve("sa.json"), account.json());
        env.put("GOOGLE_APPLICATION_CREDENTIALS", file.toString());
        server.enqueue(json(200, GoogleServiceAccount.TOKEN_REPLY, Map.of()), sse(List.of(GEMINI_TEXT)),
                sse(List.of(GEMINI_TEXT)));

        AgentMessage.Assistant reply = send("gemini-2.5-flash", null);
        assertEquals(StopReason.STOP, reply.stopReason(), reply.errorMessage());
        List<FakeProviderServer.RecordedRequest> requests = server.requests();
        assertEquals("/token", requests.get(0).path());
        assertTrue(requests.get(0).body().contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"),
                requests.get(0).body());
        FakeProviderServer.RecordedRequest call = requests.get(1);
        assertEquals("Bearer " + GoogleServiceAccount.TOKEN, call.header("authorization"));
        assertNull(call.header("x-goog-api-key"));
        assertTrue(call.path().startsWith("/v1/projects/sa-project/locations/us-east5/"), call.path());
        assertTrue(KnownSecrets.all().contains(GoogleServiceAccount.TOKEN), "the token is redacted wherever it goes");
        assertTrue(KnownSecrets.all().contains(account.privateKeyPem()), "and so is the private key");

        send("gemini-2.5-flash", null);
        assertEquals(3, server.requestCount(), "an unexpired token is reused: no second exchange");
        assertEquals("Bearer " + GoogleServiceAccount.TOKEN, server.lastRequest().header("authorization"));
    }

    @Test
    void aCredentialWithoutAProjectNamesEveryPlaceLooked() throws Exception {
        env.remove("GOOGLE_CLOUD_PROJECT");
        Path file = Files.writeString(dir.resolve("noproject.json"),
                GoogleServiceAccount.create(server.baseUrl() + "/token", null).json());
        env.put("GOOGLE_APPLICATION_CREDENTIALS", file.toString());
        AgentMessage.Assistant reply = send("gemini-2.5-flash", null);
        assertEquals(StopReason.ERROR, reply.stopReason());
        assertTrue(reply.errorMessage().contains("No Google Cloud project for Vertex AI"), reply.errorMessage());
        assertTrue(reply.errorMessage().contains("GOOGLE_CLOUD_PROJECT") && reply.errorMessage().contains("GCLOUD_PROJECT")
                && reply.errorMessage().contains(file.toString()), reply.errorMessage());
        assertEquals(0, server.requestCount());
    }

    @Test
    void aMissingOrBrokenCredentialFileIsNamed() throws Exception {
        env.put("GOOGLE_APPLICATION_CREDENTIALS", dir.resolve("absent.json").toString());
        AgentMessage.Assistant missing = send("gemini-2.5-flash", null);
        assertEquals(StopReason.ERROR, missing.stopReason());
        assertTrue(missing.errorMessage().contains("GOOGLE_APPLICATION_CREDENTIALS")
                && missing.errorMessage().contains("absent.json"), missing.errorMessage());

        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"type\":\"service_account\","
                + "\"private_key\":\"-----BEGIN PRIVATE KEY-----\\nnot-a-key-at-all-0123456789\\n-----END PRIVATE KEY-----\\n\"}");
        env.put("GOOGLE_APPLICATION_CREDENTIALS", broken.toString());
        AgentMessage.Assistant unusable = send("gemini-2.5-flash", null);
        assertTrue(unusable.errorMessage().contains("broken.json") && unusable.errorMessage().contains("not a credential"),
                unusable.errorMessage());
        assertFalse(unusable.errorMessage().contains("not-a-key-at-all"), unusable.errorMessage());
        assertEquals(0, server.requestCount());
    }

    @Test
    void gcloudsFileUnderCloudsdkConfigIsUsedWhenNoFileIsNamed() throws Exception {
        Path config = Files.createDirectories(dir.resolve("gcloud"));
        Files.writeString(config.resolve("application_default_credentials.json"),
                GoogleServiceAccount.create(server.baseUrl() + "/token", "p").json());
        env.put("CLOUDSDK_CONFIG", config.toString());
        server.enqueue(json(200, GoogleServiceAccount.TOKEN_REPLY, Map.of()), sse(List.of(GEMINI_TEXT)));
        AgentMessage.Assistant reply = send("gemini-2.5-flash", null);
        assertEquals(StopReason.STOP, reply.stopReason(), reply.errorMessage());
        assertEquals("Bearer " + GoogleServiceAccount.TOKEN, server.lastRequest().header("authorization"));
        assertTrue(server.lastRequest().path().startsWith("/v1/projects/agentd-proj/"), "the env's project first");
    }

    @Test
    void googleErrorBodiesClassifyForBothPublishers() {
        server.enqueue(json(429, SHARED_QUOTA_429, Map.of()),
                json(429, "{\"error\":{\"code\":429,\"message\":\"Quota exceeded for aiplatform.googleapis.com/"
                        + "generate_content_requests_per_minute_per_project_per_base_model with base model: "
                        + "claude-sonnet-4-5.\",\"status\":\"RESOURCE_EXHAUSTED\",\"details\":[{\"@type\":"
                        + "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"7s\"}]}}", Map.of()),
                json(503, "{\"error\":{\"code\":503,\"message\":\"The service is currently unavailable.\","
                        + "\"status\":\"UNAVAILABLE\"}}", Map.of()),
                json(401, "{\"error\":{\"code\":401,\"message\":\"Request had invalid authentication credentials. "
                        + "Expected OAuth 2 access token, login cookie or other valid authentication credential.\","
                        + "\"status\":\"UNAUTHENTICATED\"}}", Map.of()),
                json(403, "{\"error\":{\"code\":403,\"message\":\"Permission 'aiplatform.endpoints.predict' denied on "
                        + "resource '//aiplatform.googleapis.com/projects/agentd-proj/locations/us-east5/publishers/"
                        + "anthropic/models/claude-sonnet-4-5' (or it may not exist).\",\"status\":\"PERMISSION_DENIED\"}}",
                        Map.of()));
        AgentMessage.Assistant shared = send("gemini-2.5-flash", KEY);
        assertEquals("RESOURCE_EXHAUSTED", shared.errorType());
        assertEquals(ErrorClass.RATE_LIMITED, classify(shared));
        AgentMessage.Assistant hinted = send("claude-sonnet-4-5", KEY);
        assertEquals(7_000L, hinted.retryAfterMs());
        assertEquals(ErrorClass.RATE_LIMITED, classify(hinted));
        AgentMessage.Assistant unavailable = send("claude-sonnet-4-5", KEY);
        assertEquals("UNAVAILABLE", unavailable.errorType());
        assertEquals(ErrorClass.TRANSIENT, classify(unavailable));
        assertEquals(ErrorClass.CREDENTIAL_REJECTED, classify(send("gemini-2.5-flash", KEY)));
        assertEquals(ErrorClass.ACCESS_DENIED, classify(send("claude-sonnet-4-5", KEY)));
    }

    @Test
    void anthropicFormatErrorsFromClaudeOnVertexClassifyToo() {
        server.enqueue(json(529, AnthropicWire.errorBody("overloaded_error", "Overloaded"), Map.of()),
                sse(AnthropicWire.chunks(AnthropicWire.messageStart(10, 0, 0), AnthropicWire.textBlock(0, "Part"),
                        AnthropicWire.error("overloaded_error", "Overloaded"))));
        AgentMessage.Assistant status = send("claude-sonnet-4-5@20250929", KEY);
        assertEquals("overloaded_error", status.errorType());
        assertEquals(ErrorClass.TRANSIENT, classify(status));
        AgentMessage.Assistant inBand = send("claude-sonnet-4-5@20250929", KEY);
        assertEquals(StopReason.ERROR, inBand.stopReason());
        assertEquals("overloaded_error", inBand.errorType());
        assertEquals(ErrorClass.TRANSIENT, classify(inBand));
    }

    @Test
    void aCutGeminiStreamNamesGoogleVertex() {
        server.enqueue(sse(List.of("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hal\"}]}}]}\r\n\r\n")));
        AgentMessage.Assistant reply = send("gemini-2.5-flash", KEY);
        assertEquals("google-vertex stream ended without a finish reason", reply.errorMessage());
        assertEquals(ErrorClass.TRANSIENT, classify(reply));
    }

    /** A token endpoint failure the library calls retryable (unreachable, 5xx). */
    static final class RetryableFailure extends java.io.IOException implements com.google.auth.Retryable {
        @Override
        public boolean isRetryable() {
            return true;
        }

        @Override
        public int getRetryCount() {
            return 0;
        }
    }

    @Test
    void aRefusedTokenExchangeIsARejectedCredentialAndAnUnreachableOneIsRetried() throws Exception {
        GoogleServiceAccount account = GoogleServiceAccount.create(server.baseUrl() + "/token", "p");
        env.put("GOOGLE_APPLICATION_CREDENTIALS", Files.writeString(dir.resolve("refused.json"), account.json())
                .toString());
        server.enqueue(json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}",
                Map.of()));
        AgentMessage.Assistant refused = send("gemini-2.5-flash", null);
        assertEquals(StopReason.ERROR, refused.stopReason());
        assertTrue(refused.errorMessage().startsWith("Google authentication failed for Vertex AI"),
                refused.errorMessage());
        assertEquals(ErrorClass.CREDENTIAL_REJECTED, classify(refused));
        assertEquals(1, server.requestCount(), "no Vertex call without a token");

        String unreachable = GoogleAuthSupport.tokenFailure(new RetryableFailure(), "the file");
        AgentMessage.Assistant retried = new AgentMessage.Assistant(List.of(), VertexProvider.API, "google-vertex",
                "gemini-2.5-flash", dev.agentd.protocol.message.Usage.ZERO, StopReason.ERROR, unreachable, 1);
        assertEquals(ErrorClass.TRANSIENT, classify(retried), unreachable);
    }
}
