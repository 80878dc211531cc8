package dev.agentd.server.ai.gemini;

import static dev.agentd.server.ai.gemini.GeminiWire.call;
import static dev.agentd.server.ai.gemini.GeminiWire.chunk;
import static dev.agentd.server.ai.gemini.GeminiWire.part;
import static dev.agentd.server.ai.gemini.GeminiWire.signed;
import static dev.agentd.server.ai.gemini.GeminiWire.thought;
import static dev.agentd.server.testing.http.FakeProviderServer.json;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.RecordingListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The google-generative-ai provider against a fake server speaking Gemini's documented SSE format. */
class GeminiProviderTest {
    static final String KEY = "AIzaSyTest-KEY-0123456789abcdefghij";
    static final String SIG_THOUGHT = "c2lnLXRob3VnaHQtMDE=";
    static final String SIG_CALL = "c2lnLWNhbGwtMDAx";

    FakeProviderServer server;
    SystemScheduler scheduler;
    Provider provider;
    Model model;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        provider = HttpProviders.create(new LazyHttpClient(), scheduler,
                () -> new ProviderTimeouts(5_000, 5_000, 5_000)).stream()
                .filter(p -> p.api().equals(GeminiProvider.API)).findFirst().orElseThrow();
        model = model("gemini-2.5-flash", 65_536);
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    Model model(String id, long maxTokens) {
        return new Model(id, id, GeminiProvider.API, "google", server.baseUrl() + "/v1beta", true,
                List.of("text", "image"), new Model.Cost(0.3, 2.5, 0.075, 0), 1_048_576, maxTokens);
    }

    AgentMessage.Assistant send(List<AgentMessage> messages, List<ToolDefinition> tools, ThinkingLevel level) {
        return provider.stream(new StreamRequest(model, "Be brief.", messages, tools, level, KEY, Map.of(), "s"),
                new RecordingListener(), CancellationToken.none());
    }

    static List<AgentMessage> hi() {
        return List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1));
    }

    AgentMessage.Assistant sendHi() {
        return send(hi(), List.of(), ThinkingLevel.OFF);
    }

    static ErrorClass classify(AgentMessage.Assistant reply) {
        return ErrorClassifier.classify(reply, 1_048_576).errorClass();
    }

    @Test
    void thoughtsTextSignaturesUsageAndTheRequestOnTheWire() {
        server.enqueue(sse(List.of(
                chunk(null, thought("Weighing "), thought("options.")),
                chunk(null, signed(part(""), SIG_THOUGHT)),
                chunk(null, part("Hello")),
                chunk("STOP", signed(part(" there."), "dGV4dC1zaWc=")))));
        RecordingListener listener = new RecordingListener();

        AgentMessage.Assistant reply = provider.stream(new StreamRequest(model, "Be brief.", hi(), List.of(),
                ThinkingLevel.MEDIUM, KEY, Map.of(), "s"), listener, CancellationToken.none());

        assertEquals(StopReason.STOP, reply.stopReason(), reply.errorMessage());
        assertEquals(List.of(new ContentBlock.Thinking("Weighing options.", SIG_THOUGHT, null),
                new ContentBlock.Text("Hello there.", "dGV4dC1zaWc=")), reply.content());
        assertEquals(List.of("thinking_start", "thinking_delta", "thinking_delta", "thinking_end", "text_start",
                "text_delta", "text_delta", "text_end"), listener.types());
        Usage usage = reply.usage();
        // input = prompt − cached, output = candidates + thoughts, cacheRead = cached, total as reported
        assertEquals(List.of(200L, 140L, 1000L, 0L, 1340L),
                List.of(usage.input(), usage.output(), usage.cacheRead(), usage.cacheWrite(), usage.totalTokens()));
        assertEquals(GeminiWire.VERSION, reply.responseModel());

        FakeProviderServer.RecordedRequest request = server.lastRequest();
        assertEquals("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", request.target());
        assertEquals(KEY, request.header("x-goog-api-key"));
        assertFalse(request.target().contains(KEY));
        JsonNode body = request.json();
        assertEquals("Be brief.", body.at("/systemInstruction/parts/0/text").asText());
        assertEquals("user", body.at("/contents/0/role").asText());
        assertEquals("hi", body.at("/contents/0/parts/0/text").asText());
        assertEquals(8192, body.at("/generationConfig/thinkingConfig/thinkingBudget").asInt());
        assertTrue(body.at("/generationConfig/thinkingConfig/includeThoughts").asBoolean());
    }

    @Test
    void aToolRoundTripReplaysThoughtSignaturesAndMakesStableIdsForCallsWithout() {
        ObjectNode args = Json.mapper().createObjectNode().put("path", "a.txt");
        server.enqueue(sse(List.of(
                chunk(null, thought("Need the file.")),
                chunk("STOP", signed(call(null, "read", args), SIG_CALL), call(null, "ls",
                        Json.mapper().createObjectNode())))));
        List<ToolDefinition> tools = List.of(new ToolDefinition("read", "Read a file", Json.mapper().createObjectNode()
                .put("type", "object").put("$schema", "http://json-schema.org/draft-07/schema#")
                .set("properties", Json.mapper().createObjectNode().set("mode",
                        Json.mapper().createObjectNode().put("const", "text")))));
        AgentMessage.Assistant first = send(hi(), tools, ThinkingLevel.LOW);

        assertEquals(StopReason.TOOL_USE, first.stopReason(), first.errorMessage());
        ContentBlock.ToolCall read = (ContentBlock.ToolCall) first.content().get(1);
        ContentBlock.ToolCall ls = (ContentBlock.ToolCall) first.content().get(2);
        assertEquals("read", read.name());
        assertEquals(args, read.arguments());
        assertEquals(SIG_CALL, read.thoughtSignature());
        assertNull(ls.thoughtSignature());
        assertTrue(read.id().startsWith("call_"), read.id());
        assertNotEquals(read.id(), ls.id());
        JsonNode declared = server.lastRequest().json().at("/tools/0/functionDeclarations/0");
        assertEquals("read", declared.path("name").asText());
        assertFalse(declared.path("parametersJsonSchema").has("$schema"));
        assertEquals("text", declared.at("/parametersJsonSchema/properties/mode/enum/0").asText());

        server.enqueue(sse(List.of(chunk("STOP", part("It says hi.")))));
        List<AgentMessage> history = new ArrayList<>(hi());
        history.add(first);
        history.add(new AgentMessage.ToolResult(read.id(), "read", List.of(new ContentBlock.Text("hi")), null, false, 2));
        history.add(new AgentMessage.ToolResult(ls.id(), "ls", List.of(new ContentBlock.Text("denied")), null, true, 3));
        AgentMessage.Assistant second = send(history, tools, ThinkingLevel.LOW);

        assertEquals("It says hi.", ((ContentBlock.Text) second.content().get(0)).text());
        JsonNode contents = server.lastRequest().json().path("contents");
        assertEquals(3, contents.size(), contents.toString());
        JsonNode modelTurn = contents.get(1);
        assertEquals("model", modelTurn.path("role").asText());
        // an unsigned thought goes back as a thought, without its marker
        assertTrue(modelTurn.at("/parts/0/thought").asBoolean());
        assertFalse(modelTurn.path("parts").get(0).has("thoughtSignature"));
        assertEquals(SIG_CALL, modelTurn.at("/parts/1/thoughtSignature").asText());
        assertEquals("read", modelTurn.at("/parts/1/functionCall/name").asText());
        assertEquals("a.txt", modelTurn.at("/parts/1/functionCall/args/path").asText());
        assertFalse(modelTurn.at("/parts/1/functionCall").has("id"), "2.5 pairs by name and order");
        JsonNode results = contents.get(2);
        assertEquals("user", results.path("role").asText());
        assertEquals("hi", results.at("/parts/0/functionResponse/response/output").asText());
        assertEquals("denied", results.at("/parts/1/functionResponse/response/error").asText());
        assertEquals("ls", results.at("/parts/1/functionResponse/name").asText());
    }

    @Test
    void gemini3GetsCallIdsBackAndAThinkingLevel() {
        model = model("gemini-3-pro-preview", 65_536);
        server.enqueue(sse(List.of(chunk("STOP", signed(call("fc-1", "read", Json.mapper().createObjectNode()),
                SIG_CALL)))));
        AgentMessage.Assistant first = send(hi(), List.of(), ThinkingLevel.HIGH);
        assertEquals("HIGH", server.lastRequest().json().at("/generationConfig/thinkingConfig/thinkingLevel").asText());
        assertEquals("fc-1", ((ContentBlock.ToolCall) first.content().get(0)).id());

        server.enqueue(sse(List.of(chunk("STOP", part("ok")))));
        List<AgentMessage> history = new ArrayList<>(hi());
        history.add(first);
        history.add(new AgentMessage.ToolResult("fc-1", "read", List.of(new ContentBlock.Text("x")), null, false, 2));
        send(history, List.of(), ThinkingLevel.OFF);
        JsonNode body = server.lastRequest().json();
        assertEquals("fc-1", body.at("/contents/1/parts/0/functionCall/id").asText());
        assertEquals("fc-1", body.at("/contents/2/parts/0/functionResponse/id").asText());
        assertEquals("LOW", body.at("/generationConfig/thinkingConfig/thinkingLevel").asText(),
                "3 Pro cannot turn thinking off");
        assertFalse(body.at("/generationConfig/thinkingConfig").has("includeThoughts"));
    }

    @Test
    void signaturesOfAnotherModelAreNotReplayed() {
        server.enqueue(sse(List.of(chunk("STOP", part("ok")))));
        AgentMessage.Assistant other = new AgentMessage.Assistant(List.of(new ContentBlock.Text("t", SIG_THOUGHT),
                new ContentBlock.ToolCall("c1", "read", Json.mapper().createObjectNode(), SIG_CALL)),
                GeminiProvider.API, "google", "gemini-2.0-flash", Usage.ZERO, StopReason.TOOL_USE, null, 1, null,
                null, null, null);
        List<AgentMessage> history = new ArrayList<>(hi());
        history.add(other);
        history.add(new AgentMessage.ToolResult("c1", "read", List.of(new ContentBlock.Text("x")), null, false, 2));
        send(history, List.of(), ThinkingLevel.OFF);
        JsonNode parts = server.lastRequest().json().at("/contents/1/parts");
        assertFalse(parts.get(0).has("thoughtSignature"), parts.toString());
        assertFalse(parts.get(1).has("thoughtSignature"), parts.toString());
    }

    @Test
    void safetyStopsAndBlockedPromptsAreRefusals() {
        server.enqueue(sse(List.of(chunk(null, part("Sure, ")), chunk("SAFETY"))),
                sse(List.of(GeminiWire.data("{\"promptFeedback\":{\"blockReason\":\"PROHIBITED_CONTENT\"},"
                        + "\"usageMetadata\":{\"promptTokenCount\":7,\"totalTokenCount\":7},\"modelVersion\":\"x\"}"))));
        AgentMessage.Assistant safety = sendHi();
        assertEquals(StopReason.ERROR, safety.stopReason());
        assertEquals(ErrorTypes.REFUSAL, safety.errorType());
        assertTrue(safety.errorMessage().contains("SAFETY"), safety.errorMessage());
        assertEquals(ErrorClass.REFUSAL, classify(safety));
        assertEquals("Sure, ", ((ContentBlock.Text) safety.content().get(0)).text(), "streamed text is kept");

        AgentMessage.Assistant blocked = sendHi();
        assertEquals(ErrorTypes.REFUSAL, blocked.errorType());
        assertTrue(blocked.errorMessage().contains("PROHIBITED_CONTENT"), blocked.errorMessage());
        assertEquals(ErrorClass.REFUSAL, classify(blocked));
    }

    @Test
    void maxTokensIsLengthAndOtherStopsAreErrors() {
        server.enqueue(sse(List.of(chunk("MAX_TOKENS", part("cut")))),
                sse(List.of(chunk("MALFORMED_FUNCTION_CALL"))));
        assertEquals(StopReason.LENGTH, sendHi().stopReason());
        AgentMessage.Assistant malformed = sendHi();
        assertEquals(StopReason.ERROR, malformed.stopReason());
        assertEquals("Provider stopped with: MALFORMED_FUNCTION_CALL", malformed.errorMessage());
    }

    @Test
    void resourceExhaustedIsARateLimitWithRetryInfoAsTheHintAndADailyQuotaIsQuota() {
        server.enqueue(json(429, GeminiWire.resourceExhausted("GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
                "12s"), Map.of()), json(429, GeminiWire.resourceExhausted(
                "GenerateRequestsPerDayPerProjectPerModel-FreeTier", "43s"), Map.of()));
        AgentMessage.Assistant perMinute = sendHi();
        assertEquals(429, perMinute.errorStatus());
        assertEquals("RESOURCE_EXHAUSTED", perMinute.errorType());
        assertEquals(12_000L, perMinute.retryAfterMs());
        assertEquals(ErrorClass.RATE_LIMITED, classify(perMinute));

        AgentMessage.Assistant daily = sendHi();
        assertEquals(ErrorClass.QUOTA, classify(daily));
    }

    @Test
    void googleStatusesClassify() {
        server.enqueue(
                json(503, GeminiWire.status(503, "UNAVAILABLE", "The model is overloaded. Please try again later."),
                        Map.of()),
                json(400, GeminiWire.status(400, "INVALID_ARGUMENT",
                        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."),
                        Map.of()),
                json(403, GeminiWire.status(403, "PERMISSION_DENIED",
                        "Your API key was reported as leaked. Please use another API key."), Map.of()),
                json(400, "{\"error\":{\"code\":400,\"message\":\"API key not valid. Please pass a valid API key.\","
                        + "\"status\":\"INVALID_ARGUMENT\",\"details\":[{\"@type\":\"type.googleapis.com/google.rpc"
                        + ".ErrorInfo\",\"reason\":\"API_KEY_INVALID\"}]}}", Map.of()),
                json(401, GeminiWire.status(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."),
                        Map.of()),
                json(400, GeminiWire.status(400, "INVALID_ARGUMENT", "Invalid JSON payload received."), Map.of()));
        assertEquals(ErrorClass.TRANSIENT, classify(sendHi()));
        assertEquals(ErrorClass.OVERFLOW, classify(sendHi()));
        assertEquals(ErrorClass.ACCESS_DENIED, classify(sendHi()));
        assertEquals(ErrorClass.CREDENTIAL_REJECTED, classify(sendHi()));
        assertEquals(ErrorClass.CREDENTIAL_REJECTED, classify(sendHi()));
        AgentMessage.Assistant bad = sendHi();
        assertEquals("INVALID_ARGUMENT", bad.errorType());
        assertEquals(ErrorClass.HARD, classify(bad));
    }

    @Test
    void inBandErrorsAndTruncationAreTransient() {
        server.enqueue(sse(List.of(chunk(null, part("partial")), GeminiWire.data(GeminiWire.status(503, "UNAVAILABLE",
                "overloaded")))), sse(List.of(chunk(null, part("no finish")))));
        AgentMessage.Assistant inBand = sendHi();
        assertEquals("UNAVAILABLE", inBand.errorType());
        assertNull(inBand.errorStatus());
        assertEquals(ErrorClass.TRANSIENT, classify(inBand));

        AgentMessage.Assistant truncated = sendHi();
        assertEquals(ErrorTypes.STREAM_TRUNCATED, truncated.errorType());
        assertTrue(truncated.errorMessage().contains("google-generative-ai"), truncated.errorMessage());
        assertEquals(ErrorClass.TRANSIENT, classify(truncated));
    }

    @Test
    void hostileInputEndsTheAttemptWithAnErrorNamingTheApi() {
        String huge = "x".repeat(600_000);
        String unterminated = "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"" + KEY + "\"";
        String deep = "{\"candidates\":" + "[".repeat(5000) + "]".repeat(5000) + "}";
        server.enqueue(sse(List.of(GeminiWire.data(unterminated))), sse(List.of(GeminiWire.data(deep))),
                sse(List.of(chunk(null, part(huge)), chunk("STOP", part("end")))));
        AgentMessage.Assistant malformed = sendHi();
        assertEquals(ErrorTypes.STREAM_TRUNCATED, malformed.errorType());
        assertTrue(malformed.errorMessage().startsWith("Malformed google-generative-ai stream event"),
                malformed.errorMessage());
        assertFalse(malformed.errorMessage().contains(KEY), "the key is redacted");
        AgentMessage.Assistant nested = sendHi();
        assertEquals(ErrorTypes.STREAM_TRUNCATED, nested.errorType(), nested.errorMessage());
        assertTrue(nested.errorMessage().startsWith("Malformed google-generative-ai stream event"),
                nested.errorMessage());

        model = model("gemini-2.5-flash", 10);
        AgentMessage.Assistant tooLarge = sendHi();
        assertEquals(ErrorTypes.REPLY_TOO_LARGE, tooLarge.errorType());
    }
}
