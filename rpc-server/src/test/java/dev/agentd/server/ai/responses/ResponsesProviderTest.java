package dev.agentd.server.ai.responses;

import static dev.agentd.server.testing.http.FakeProviderServer.json;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
import dev.agentd.server.runtime.OutputBackpressure;
import dev.agentd.server.runtime.ProviderVariables;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.RecordingListener;
import dev.agentd.server.testing.http.ResponsesWire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** openai-responses against the fake server speaking the API reference's full event sequence. */
class ResponsesProviderTest {
    static final String KEY = "sk-proj-responses-KEY-0123456789abcdef";
    static final List<ContentBlock> HI = List.of(new ContentBlock.Text("hi"));

    FakeProviderServer server;
    SystemScheduler scheduler;
    List<Provider> providers;
    Model model;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        providers = HttpProviders.create(new LazyHttpClient(), scheduler,
                () -> new ProviderTimeouts(5_000, 5_000, 5_000), () -> 64 * 1024, OutputBackpressure.NONE);
        model = model("gpt-5", OpenAiResponsesProvider.API);
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    Model model(String id, String api) {
        return new Model(id, id, api, "openai", server.baseUrl() + "/v1", true, List.of("text", "image"),
                new Model.Cost(1.25, 10, 0.125, 0), 400_000, 128_000);
    }

    Provider provider(String api) {
        return providers.stream().filter(p -> p.api().equals(api)).findFirst().orElseThrow();
    }

    AgentMessage.Assistant send(Model target, List<AgentMessage> messages, RecordingListener listener) {
        List<ToolDefinition> tools = List.of(new ToolDefinition("read", "Read a file",
                Json.mapper().createObjectNode().put("type", "object")));
        return provider(target.api()).stream(new StreamRequest(target, "Be brief.", messages, tools,
                ThinkingLevel.HIGH, KEY, Map.of(), "session-1"), listener, CancellationToken.none());
    }

    AgentMessage.Assistant send(List<String> events) {
        server.enqueue(sse(events));
        return send(model, List.of(new AgentMessage.User(HI, 1)), new RecordingListener());
    }

    @Test
    void theFullEventSequenceOfATextReplyBuildsOneTextBlockWithUsageCostAndItsMessageId() {
        server.enqueue(sse(ResponsesWire.text("msg_67ccd3acc8d48190", "Hello", ", world.")));
        RecordingListener listener = new RecordingListener(true);

        AgentMessage.Assistant reply = send(model, List.of(new AgentMessage.User(HI, 1)), listener);

        assertEquals(StopReason.STOP, reply.stopReason(), reply.errorMessage());
        assertEquals(List.of("text_start", "text_delta", "text_delta", "text_end"), listener.types());
        assertEquals(List.of(new ContentBlock.Text("Hello, world.", "{\"v\":1,\"id\":\"msg_67ccd3acc8d48190\"}")),
                reply.content());
        assertEquals(ResponsesWire.MODEL, reply.responseModel());
        Usage usage = reply.usage();
        // input = input_tokens − cached; output_tokens already counts the reasoning tokens
        assertEquals(List.of(80L, 40L, 20L, 0L, 140L),
                List.of(usage.input(), usage.output(), usage.cacheRead(), usage.cacheWrite(), usage.totalTokens()));
        assertEquals(80 * 1.25 / 1e6 + 40 * 10 / 1e6 + 20 * 0.125 / 1e6, usage.cost().total(), 1e-12);

        FakeProviderServer.RecordedRequest request = server.lastRequest();
        assertEquals("/v1/responses", request.path());
        assertEquals("Bearer " + KEY, request.header("authorization"));
        JsonNode body = request.json();
        assertEquals("gpt-5", body.path("model").asText());
        assertTrue(body.path("stream").asBoolean());
        assertFalse(body.path("store").asBoolean(true));
        assertEquals("session-1", body.path("prompt_cache_key").asText());
        assertEquals("{\"effort\":\"high\",\"summary\":\"auto\"}", body.path("reasoning").toString());
        assertEquals("[\"reasoning.encrypted_content\"]", body.path("include").toString());
        assertEquals("{\"role\":\"developer\",\"content\":\"Be brief.\"}", body.path("input").get(0).toString());
        assertEquals("{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}",
                body.path("input").get(1).toString());
        assertEquals("{\"type\":\"function\",\"name\":\"read\",\"description\":\"Read a file\","
                + "\"parameters\":{\"type\":\"object\"}}", body.path("tools").get(0).toString());
    }

    @Test
    void reasoningAndAToolCallRoundTripReplayTheReasoningItemAndIdsOnTheNextTurn() {
        server.enqueue(sse(ResponsesWire.reasoningThenCall("rs_1", "gAAAA-encrypted", "Need the file.", "call_A",
                "fc_1", "read", "{\"path\":", "\"a.txt\"}")));
        RecordingListener listener = new RecordingListener();
        List<AgentMessage> history = new ArrayList<>(List.of(new AgentMessage.User(HI, 1)));

        AgentMessage.Assistant first = send(model, history, listener);

        assertEquals(StopReason.TOOL_USE, first.stopReason(), first.errorMessage());
        assertEquals(List.of("thinking_start", "thinking_delta", "thinking_end", "toolcall_start", "toolcall_delta",
                "toolcall_delta", "toolcall_end"), listener.types());
        ContentBlock.Thinking thinking = (ContentBlock.Thinking) first.content().get(0);
        assertEquals("Need the file.", thinking.thinking());
        JsonNode item = ReasoningItems.parse(thinking.thinkingSignature());
        assertEquals("gAAAA-encrypted", item.path("encrypted_content").asText());
        assertEquals(new ContentBlock.ToolCall("call_A|fc_1", "read",
                Json.mapper().createObjectNode().put("path", "a.txt")), first.content().get(1));
        assertEquals(List.of(200L, 120L, 300L), List.of(first.usage().input(), first.usage().output(),
                first.usage().cacheRead()));

        history.add(first);
        history.add(new AgentMessage.ToolResult("call_A|fc_1", "read", List.of(new ContentBlock.Text("A")), null,
                false, 2));
        server.enqueue(sse(ResponsesWire.text("msg_2", "It says A.")));
        AgentMessage.Assistant second = send(model, history, new RecordingListener());
        assertEquals(StopReason.STOP, second.stopReason(), second.errorMessage());

        JsonNode input = server.lastRequest().json().path("input");
        assertEquals(5, input.size(), input.toString());
        assertEquals(item, input.get(2));
        assertEquals("{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_A\",\"name\":\"read\","
                + "\"arguments\":\"{\\\"path\\\":\\\"a.txt\\\"}\"}", input.get(3).toString());
        assertEquals("{\"type\":\"function_call_output\",\"call_id\":\"call_A\",\"output\":\"A\"}",
                input.get(4).toString());

        // Third turn: the message id is replayed only next to the reasoning that produced it.
        history.add(second);
        history.add(new AgentMessage.User(List.of(new ContentBlock.Text("thanks")), 3));
        server.enqueue(sse(ResponsesWire.text("msg_3", "You're welcome.")));
        send(model, history, new RecordingListener());
        JsonNode third = server.lastRequest().json().path("input");
        assertEquals("{\"role\":\"assistant\",\"content\":\"It says A.\"}", third.get(5).toString());
    }

    @Test
    void anotherModelsReasoningIsPlainTextAndItsItemIdsAreDropped() {
        server.enqueue(sse(ResponsesWire.reasoningThenCall("rs_1", "enc", "Plan.", "call_A", "fc_1", "read", "{}")));
        List<AgentMessage> history = new ArrayList<>(List.of(new AgentMessage.User(HI, 1)));
        history.add(send(model, history, new RecordingListener()));
        history.add(new AgentMessage.ToolResult("call_A|fc_1", "read", List.of(), null, false, 2));
        server.enqueue(sse(ResponsesWire.text("msg_2", "ok")));

        send(model("gpt-5-mini", OpenAiResponsesProvider.API), history, new RecordingListener());

        JsonNode input = server.lastRequest().json().path("input");
        assertEquals("{\"role\":\"assistant\",\"content\":\"Plan.\"}", input.get(2).toString());
        assertFalse(input.get(3).has("id"), input.get(3).toString());
        assertEquals("(no tool output)", input.get(4).path("output").asText());
    }

    @Test
    void mockServerStyleStreamsWithoutContentPartsCallIdOrCompletedOutputStillBuildTheReply() {
        ResponsesWire wire = ResponsesWire.stream();
        wire.event("response.output_item.added", node("{\"output_index\":0,\"item\":{\"type\":\"function_call\","
                + "\"id\":\"fc_9\",\"name\":\"read\",\"arguments\":\"\"}}"));
        wire.event("response.function_call_arguments.delta", node("{\"output_index\":0,\"delta\":\"{}\"}"));
        wire.event("response.output_item.done", node("{\"output_index\":0,\"item\":{\"type\":\"function_call\","
                + "\"id\":\"fc_9\",\"name\":\"read\"}}"));
        wire.event("response.output_text.delta", node("{\"output_index\":1,\"delta\":\"done\"}"));
        wire.event("response.brand_new_event", node("{\"output_index\":7,\"whatever\":[1,2]}"));
        wire.event("response.completed", node("{\"response\":{\"status\":\"completed\",\"usage\":"
                + "{\"input_tokens\":5,\"output_tokens\":2}}}"));

        AgentMessage.Assistant reply = send(wire.events());

        assertEquals(StopReason.TOOL_USE, reply.stopReason(), reply.errorMessage());
        assertEquals(List.of(new ContentBlock.ToolCall("fc_9|fc_9", "read", Json.mapper().createObjectNode()),
                new ContentBlock.Text("done")), reply.content());
        assertEquals(7, reply.usage().totalTokens());
    }

    @Test
    void responseFailedEndsTheReplyWithTheProvidersErrorClassifiedTransient() {
        ResponsesWire wire = ResponsesWire.stream().message(0, "msg_1", "Partial");
        wire.event("response.failed", node("{\"response\":{\"id\":\"resp_1\",\"status\":\"failed\",\"error\":"
                + "{\"code\":\"server_error\",\"message\":\"The server had an error processing your request "
                + KEY + "\"}}}"));

        AgentMessage.Assistant reply = send(wire.events());

        assertEquals(StopReason.ERROR, reply.stopReason());
        assertEquals("server_error", reply.errorType());
        assertTrue(reply.errorMessage().contains("The server had an error"), reply.errorMessage());
        assertEquals("Partial", ((ContentBlock.Text) reply.content().get(0)).text());
        assertEquals(ErrorClass.TRANSIENT, ErrorClassifier.classify(reply, 400_000).errorClass());
        assertFalse(reply.errorMessage().contains(KEY), "the key echoed by the provider is redacted");
    }

    @Test
    void aRefusalFailsTheReplyAsARefusalAndAnUnreadableSignatureIsNotReplayed() {
        ResponsesWire wire = ResponsesWire.stream();
        wire.event("response.output_item.added", node("{\"output_index\":0,\"item\":{\"type\":\"message\"}}"));
        wire.event("response.refusal.delta", node("{\"output_index\":0,\"delta\":\"I can't help with that.\"}"));
        wire.completed(ResponsesWire.usage(3, 5, 0, 0));
        AgentMessage.Assistant refused = send(wire.events());
        assertEquals(ErrorTypes.REFUSAL, refused.errorType());
        assertEquals("I can't help with that.", refused.errorMessage());

        AgentMessage.Assistant edited = new AgentMessage.Assistant(List.of(
                new ContentBlock.Thinking("thought", "{not json", null), new ContentBlock.Text("Hi.")),
                model.api(), model.provider(), model.id(), Usage.ZERO, StopReason.STOP, null, 1, null, null, null,
                null, null);
        server.enqueue(sse(ResponsesWire.text("msg_1", "ok")));
        send(model, List.of(new AgentMessage.User(HI, 1), edited, new AgentMessage.User(HI, 2)),
                new RecordingListener());
        JsonNode input = server.lastRequest().json().path("input");
        assertEquals("{\"role\":\"assistant\",\"content\":\"Hi.\"}", input.get(2).toString());
        assertEquals(4, input.size(), input.toString());
    }

    @Test
    void anErrorEventCarriesItsCodeAndA429ItsRetryHint() {
        ResponsesWire wire = ResponsesWire.stream();
        wire.event("error", node("{\"code\":\"rate_limit_exceeded\",\"message\":\"Slow down\",\"param\":null}"));
        AgentMessage.Assistant inBand = send(wire.events());
        assertEquals("rate_limit_exceeded", inBand.errorType());

        server.enqueue(json(429, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\","
                + "\"code\":\"rate_limit_exceeded\"}}", Map.of("retry-after", "7")));
        AgentMessage.Assistant limited = send(model, List.of(new AgentMessage.User(HI, 1)), new RecordingListener());
        assertEquals(429, limited.errorStatus());
        assertEquals("rate_limit_exceeded", limited.errorType());
        assertEquals(7_000L, limited.retryAfterMs());
    }

    @Test
    void incompleteForMaxOutputTokensIsLengthAndABodyEndingEarlyIsTruncated() {
        ResponsesWire wire = ResponsesWire.stream().message(0, "msg_1", "Cut");
        wire.event("response.incomplete", node("{\"response\":{\"status\":\"incomplete\","
                + "\"incomplete_details\":{\"reason\":\"max_output_tokens\"}}}"));
        assertEquals(StopReason.LENGTH, send(wire.events()).stopReason());

        AgentMessage.Assistant truncated = send(ResponsesWire.stream().message(0, "msg_2", "half").events());
        assertEquals(StopReason.ERROR, truncated.stopReason());
        assertEquals(ErrorTypes.STREAM_TRUNCATED, truncated.errorType());
        assertTrue(truncated.errorMessage().contains("OpenAI Responses"), truncated.errorMessage());
    }

    @Test
    void hostileInputEndsTheAttemptWithAnErrorNamingTheApi() {
        AgentMessage.Assistant malformed = send(List.of("event: response.output_text.delta\ndata: {\"type\":\n\n"));
        assertEquals(ErrorTypes.STREAM_TRUNCATED, malformed.errorType());
        assertTrue(malformed.errorMessage().startsWith("Malformed OpenAI Responses stream event"),
                malformed.errorMessage());

        String huge = "x".repeat(100 * 1024); // past this test's 64 KiB reply bound
        ResponsesWire wire = ResponsesWire.stream().message(0, "msg_1", "a", huge, "b");
        AgentMessage.Assistant tooLarge = send(wire.completed(ResponsesWire.usage(1, 1, 0, 0)).events());
        assertEquals(ErrorTypes.REPLY_TOO_LARGE, tooLarge.errorType());

        ResponsesWire typed = ResponsesWire.stream();
        typed.event("response.output_item.added", node("{\"output_index\":0,\"item\":{\"type\":\"message\"}}"));
        typed.event("response.output_text.delta", node("{\"output_index\":0,\"delta\":{\"nested\":[[[1]]]}}"));
        typed.event("response.output_item.done", node("{\"output_index\":\"zero\",\"item\":42}"));
        typed.event("response.completed", node("{\"response\":{\"status\":\"completed\",\"usage\":\"lots\"}}"));
        AgentMessage.Assistant odd = send(typed.events());
        assertEquals(StopReason.STOP, odd.stopReason(), odd.errorMessage());
        assertEquals(0, odd.usage().totalTokens());
    }

    @Test
    void azureSendsTheDeploymentWithAnApiKeyHeaderAndTheApiVersionQuery() {
        server.enqueue(sse(ResponsesWire.text("msg_1", "Hi from Azure")));
        Model azure = new Model("my-gpt5-deployment", "GPT-5 (Azure)", AzureResponsesProvider.API, "azure",
                server.baseUrl() + "/openai/v1?api-version=2025-04-01-preview", true, List.of("text"),
                Model.Cost.FREE, 400_000, 128_000);

        AgentMessage.Assistant reply = send(azure, List.of(new AgentMessage.User(HI, 1)), new RecordingListener());

        assertEquals("Hi from Azure", ((ContentBlock.Text) reply.content().get(0)).text(), reply.errorMessage());
        assertEquals("azure-openai-responses", reply.api());
        FakeProviderServer.RecordedRequest request = server.lastRequest();
        assertEquals("/openai/v1/responses?api-version=2025-04-01-preview", request.target());
        assertEquals(KEY, request.header("api-key"));
        assertNull(request.header("authorization"));
        assertEquals("my-gpt5-deployment", request.json().path("model").asText());
    }

    @Test
    void azureResourceRootsBecomeTheV1Path() {
        assertEquals(new AzureEndpoint("https://res.openai.azure.com/openai/v1", "v1"),
                AzureEndpoint.of("https://res.openai.azure.com/"));
        assertEquals(new AzureEndpoint("https://res.cognitiveservices.azure.com/openai/v1", "v1"),
                AzureEndpoint.of("https://res.cognitiveservices.azure.com/openai"));
        assertEquals(new AzureEndpoint("https://res.services.ai.azure.com/openai/v1", "preview"),
                AzureEndpoint.of("https://res.services.ai.azure.com/openai/v1/responses?api-version=preview"));
        assertEquals(new AzureEndpoint("https://gateway.example/azure", "v1"),
                AzureEndpoint.of("https://gateway.example/azure"));
        assertEquals("/responses?api-version=v1", AzureEndpoint.of("https://x.openai.azure.com").path());
    }

    @Test
    void azureKeysComeFromPisVariable() {
        assertEquals("AZURE_OPENAI_API_KEY", ProviderVariables.forProvider("azure").orElseThrow());
        assertEquals("AZURE_OPENAI_API_KEY", ProviderVariables.forProvider("azure-openai-responses").orElseThrow());
    }

    static com.fasterxml.jackson.databind.node.ObjectNode node(String json) {
        try {
            return (com.fasterxml.jackson.databind.node.ObjectNode) Json.mapper().readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
