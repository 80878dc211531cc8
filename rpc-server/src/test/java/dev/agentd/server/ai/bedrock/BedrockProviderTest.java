package dev.agentd.server.ai.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.ai.http.StreamingExchange;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.http.BedrockWire;
import dev.agentd.server.testing.http.RecordingListener;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** bedrock-converse-stream against a loopback server answering with event-stream frames encoded by AWS's library. */
class BedrockProviderTest {
    static final String KEY_ID = "AKIDEXAMPLE";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    static final String SESSION = "session-token-SECRET-0123456789";
    static final String MODEL_ID = "anthropic.claude-sonnet-4-20250514-v1:0";

    HttpServer server;
    SystemScheduler scheduler;
    final ConcurrentLinkedQueue<byte[]> replies = new ConcurrentLinkedQueue<>();
    final List<Recorded> requests = new ArrayList<>();
    final Map<String, String> env = new LinkedHashMap<>();
    int status = 200;
    final Map<String, String> replyHeaders = new LinkedHashMap<>();

    record Recorded(String path, Map<String, String> headers, JsonNode body) {}

    @BeforeEach
    void setUp() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
            JsonNode body = Json.mapper().readTree(exchange.getRequestBody().readAllBytes());
            synchronized (requests) {
                requests.add(new Recorded(exchange.getRequestURI().getRawPath(), headers, body));
            }
            byte[] reply = replies.poll();
            exchange.getResponseHeaders().add("content-type",
                    status == 200 ? "application/vnd.amazon.eventstream" : "application/json");
            replyHeaders.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            exchange.sendResponseHeaders(status, reply.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(reply);
            }
        });
        server.start();
        scheduler = new SystemScheduler();
        env.put("AWS_ACCESS_KEY_ID", KEY_ID);
        env.put("AWS_SECRET_ACCESS_KEY", SECRET);
        env.put("AWS_REGION", "us-west-2");
    }

    @AfterEach
    void tearDown() {
        server.stop(0);
        scheduler.close();
    }

    static byte[] frame(String type, String json) {
        return BedrockWire.event(type, json);
    }

    static byte[] frame(String typeHeader, String type, String kind, String json) {
        return BedrockWire.frame(typeHeader, type, kind, json);
    }

    static byte[] concat(byte[]... frames) {
        return BedrockWire.concat(frames);
    }

    static byte[] textReply() {
        return concat(frame("messageStart", "{\"role\":\"assistant\"}"),
                frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hello\"}}"),
                frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\", world.\"}}"),
                frame("contentBlockStop", "{\"contentBlockIndex\":0}"),
                frame("messageStop", "{\"stopReason\":\"end_turn\"}"),
                frame("metadata", "{\"usage\":{\"inputTokens\":12,\"outputTokens\":4,\"cacheReadInputTokens\":8,"
                        + "\"totalTokens\":24},\"metrics\":{\"latencyMs\":100}}"));
    }

    Model model(boolean reasoning) {
        return new Model(MODEL_ID, "Claude Sonnet 4", BedrockProvider.API, "amazon-bedrock",
                "http://127.0.0.1:" + server.getAddress().getPort(), reasoning, List.of("text", "image"),
                new Model.Cost(3, 15, 0.3, 3.75), 200_000, 64_000);
    }

    BedrockProvider provider() {
        HttpReplyStreamer streamer = new HttpReplyStreamer(new StreamingExchange(new LazyHttpClient(), scheduler),
                scheduler, () -> new ProviderTimeouts(5_000, 5_000, 5_000));
        return new BedrockProvider(streamer, env::get,
                Clock.fixed(Instant.parse("2026-12-02T08:00:00Z"), ZoneOffset.UTC));
    }

    AgentMessage.Assistant send(List<AgentMessage> messages, ThinkingLevel level, RecordingListener listener) {
        List<ToolDefinition> tools = List.of(new ToolDefinition("read", "Read a file",
                Json.mapper().createObjectNode().put("type", "object")));
        return provider().stream(new StreamRequest(model(true), "Be brief.", messages, tools, level, null, Map.of(),
                "session-1"), listener, CancellationToken.none());
    }

    AgentMessage.Assistant send(byte[] body) {
        replies.add(body);
        return send(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)), ThinkingLevel.OFF,
                new RecordingListener());
    }

    @Test
    void aTextReplyIsSignedWithSigV4FromTheEnvironmentKeysAndBuildsTextAndUsage() {
        RecordingListener listener = new RecordingListener();
        replies.add(textReply());
        AgentMessage.Assistant reply = send(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)),
                ThinkingLevel.OFF, listener);

        assertEquals(StopReason.STOP, reply.stopReason(), reply.errorMessage());
        assertEquals(List.of("Hello, world."), reply.content().stream()
                .map(b -> ((ContentBlock.Text) b).text()).toList());
        assertEquals(List.of(12L, 4L, 8L, 24L), List.of(reply.usage().input(), reply.usage().output(),
                reply.usage().cacheRead(), reply.usage().totalTokens()));
        Recorded request = requests.get(0);
        assertEquals("/model/anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream", request.path());
        String auth = request.headers().get("authorization");
        assertTrue(auth.matches("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261202/us-west-2/bedrock/aws4_request, "
                + "SignedHeaders=[a-z0-9;-]*host;[a-z0-9;-]*x-amz-date[a-z0-9;-]*, Signature=[0-9a-f]{64}"), auth);
        assertEquals("20261202T080000Z", request.headers().get("x-amz-date"));
        assertFalse(request.headers().toString().contains(SECRET));
        JsonNode body = request.body();
        assertEquals("[{\"text\":\"Be brief.\"}]", body.path("system").toString());
        assertEquals("[{\"role\":\"user\",\"content\":[{\"text\":\"hi\"}]}]", body.path("messages").toString());
        assertEquals("{\"tools\":[{\"toolSpec\":{\"name\":\"read\",\"description\":\"Read a file\","
                + "\"inputSchema\":{\"json\":{\"type\":\"object\"}}}}]}", body.path("toolConfig").toString());
        assertEquals(64_000, body.path("inferenceConfig").path("maxTokens").asLong());
        assertTrue(body.path("additionalModelRequestFields").isMissingNode());
    }

    @Test
    void aSessionTokenIsSentAndTheBearerTokenReplacesSigV4() {
        env.put("AWS_SESSION_TOKEN", SESSION);
        assertEquals(StopReason.STOP, send(textReply()).stopReason());
        assertEquals(SESSION, requests.get(0).headers().get("x-amz-security-token"));

        env.put("AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key-ABCDEF0123456789");
        assertEquals(StopReason.STOP, send(textReply()).stopReason());
        assertEquals("Bearer bedrock-api-key-ABCDEF0123456789", requests.get(1).headers().get("authorization"));
        assertNull(requests.get(1).headers().get("x-amz-date"));
    }

    @Test
    void aToolUseReplyBecomesAToolCallAndTheToolResultGoesBackAsAToolResultBlock() {
        AgentMessage.Assistant reply = send(concat(frame("messageStart", "{\"role\":\"assistant\"}"),
                frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"text\":\"Look.\"}}}"),
                frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"signature\":\"sig-1\"}}}"),
                frame("contentBlockStop", "{\"contentBlockIndex\":0}"),
                frame("contentBlockStart", "{\"contentBlockIndex\":1,\"start\":{\"toolUse\":{\"toolUseId\":\"tooluse_1\","
                        + "\"name\":\"read\"}}}"),
                frame("contentBlockDelta", "{\"contentBlockIndex\":1,\"delta\":{\"toolUse\":{\"input\":\"{\\\"path\\\":\"}}}"),
                frame("contentBlockDelta", "{\"contentBlockIndex\":1,\"delta\":{\"toolUse\":{\"input\":\"\\\"a.txt\\\"}\"}}}"),
                frame("contentBlockStop", "{\"contentBlockIndex\":1}"),
                frame("messageStop", "{\"stopReason\":\"tool_use\"}"),
                frame("metadata", "{\"usage\":{\"inputTokens\":1,\"outputTokens\":2,\"totalTokens\":3}}")));

        assertEquals(StopReason.TOOL_USE, reply.stopReason(), reply.errorMessage());
        ContentBlock.Thinking thinking = (ContentBlock.Thinking) reply.content().get(0);
        assertEquals("Look.", thinking.thinking());
        assertEquals("sig-1", thinking.thinkingSignature());
        ContentBlock.ToolCall call = (ContentBlock.ToolCall) reply.content().get(1);
        assertEquals("tooluse_1", call.id());
        assertEquals("{\"path\":\"a.txt\"}", call.arguments().toString());

        replies.add(textReply());
        List<AgentMessage> history = List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1), reply,
                new AgentMessage.ToolResult("tooluse_1", "read", List.<ContentBlock>of(new ContentBlock.Text("contents")), null, false, 2));
        assertEquals(StopReason.STOP, send(history, ThinkingLevel.MEDIUM, new RecordingListener()).stopReason());
        JsonNode messages = requests.get(1).body().path("messages");
        assertEquals("{\"role\":\"assistant\",\"content\":[{\"reasoningContent\":{\"reasoningText\":{\"text\":\"Look.\","
                + "\"signature\":\"sig-1\"}}},{\"toolUse\":{\"toolUseId\":\"tooluse_1\",\"name\":\"read\","
                + "\"input\":{\"path\":\"a.txt\"}}}]}", messages.get(1).toString());
        assertEquals("{\"role\":\"user\",\"content\":[{\"toolResult\":{\"toolUseId\":\"tooluse_1\",\"content\":"
                + "[{\"text\":\"contents\"}],\"status\":\"success\"}}]}", messages.get(2).toString());
        assertEquals("{\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":8192},"
                + "\"anthropic_beta\":[\"interleaved-thinking-2025-05-14\"]}",
                requests.get(1).body().path("additionalModelRequestFields").toString());
    }

    @Test
    void aThrottlingExceptionFrameIsARetryableRateLimitWithoutSecrets() {
        env.put("AWS_SESSION_TOKEN", SESSION);
        AgentMessage.Assistant reply = send(concat(frame("messageStart", "{\"role\":\"assistant\"}"),
                frame(":exception-type", "throttlingException", "exception",
                        "{\"message\":\"Too many requests, please wait before trying again. " + SECRET + "\"}")));

        assertEquals(StopReason.ERROR, reply.stopReason());
        assertEquals(429, reply.errorStatus());
        assertEquals("throttlingException", reply.errorType());
        assertFalse(reply.errorMessage().contains(SECRET), reply.errorMessage());
        assertEquals(ErrorClass.RATE_LIMITED, ErrorClassifier.classify(reply, 200_000).errorClass());
    }

    @Test
    void aValidationExceptionAboutLengthIsAContextOverflow() {
        AgentMessage.Assistant reply = send(frame(":exception-type", "validationException", "exception",
                "{\"message\":\"Input is too long for requested model.\"}"));
        assertEquals(400, reply.errorStatus());
        assertEquals(ErrorClass.OVERFLOW, ErrorClassifier.classify(reply, 200_000).errorClass());
    }

    @Test
    void anHttpErrorStatusIsShapedLikeOtherProviders() {
        status = 503;
        AgentMessage.Assistant reply = send("{\"message\":\"Service unavailable\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(503, reply.errorStatus());
        assertEquals("503 {\"message\":\"Service unavailable\"}", reply.errorMessage());
        assertEquals(ErrorClass.TRANSIENT, ErrorClassifier.classify(reply, 200_000).errorClass());
    }

    @Test
    void anHttpErrorTakesItsTypeFromXAmznErrorType() {
        status = 429;
        replyHeaders.put("x-amzn-ErrorType", "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/");
        AgentMessage.Assistant throttled = send("{\"message\":\"Too many requests, please wait before trying again.\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertEquals("ThrottlingException", throttled.errorType());
        assertEquals(ErrorClass.RATE_LIMITED, ErrorClassifier.classify(throttled, 200_000).errorClass());

        status = 403;
        replyHeaders.put("x-amzn-ErrorType", "UnrecognizedClientException:http://internal.amazon.com/coral/com.amazon.coral.service/");
        AgentMessage.Assistant rejected = send("{\"message\":\"The security token included in the request is invalid.\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertEquals("UnrecognizedClientException", rejected.errorType());
        assertEquals(ErrorClass.CREDENTIAL_REJECTED, ErrorClassifier.classify(rejected, 200_000).errorClass());

        replyHeaders.put("x-amzn-ErrorType", "y".repeat(5_000));
        AgentMessage.Assistant hostile = send("{}".getBytes(StandardCharsets.UTF_8));
        assertTrue(hostile.errorType() == null || hostile.errorType().length() <= 256, hostile.errorType());
    }

    @Test
    void aStreamWithoutMessageStopIsTruncatedAndAnOversizedFrameEndsTheAttempt() {
        AgentMessage.Assistant cut = send(concat(frame("messageStart", "{\"role\":\"assistant\"}"),
                frame("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hel\"}}")));
        assertEquals(ErrorTypes.STREAM_TRUNCATED, cut.errorType(), cut.errorMessage());

        byte[] huge = {0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        AgentMessage.Assistant hostile = send(huge);
        assertEquals(StopReason.ERROR, hostile.stopReason());
        assertTrue(hostile.errorMessage().contains("Bedrock event stream frame"), hostile.errorMessage());
    }
}
