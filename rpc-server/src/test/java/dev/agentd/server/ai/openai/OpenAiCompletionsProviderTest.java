package dev.agentd.server.ai.openai;

import static dev.agentd.server.testing.http.FakeProviderServer.json;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static dev.agentd.server.testing.http.OpenAiWire.content;
import static dev.agentd.server.testing.http.OpenAiWire.done;
import static dev.agentd.server.testing.http.OpenAiWire.errorBody;
import static dev.agentd.server.testing.http.OpenAiWire.finish;
import static dev.agentd.server.testing.http.OpenAiWire.inBandError;
import static dev.agentd.server.testing.http.OpenAiWire.reasoning;
import static dev.agentd.server.testing.http.OpenAiWire.refusal;
import static dev.agentd.server.testing.http.OpenAiWire.role;
import static dev.agentd.server.testing.http.OpenAiWire.textReply;
import static dev.agentd.server.testing.http.OpenAiWire.toolCallArgs;
import static dev.agentd.server.testing.http.OpenAiWire.toolCallStart;
import static dev.agentd.server.testing.http.OpenAiWire.usage;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.agentd.server.ai.TextBounds;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.Replies;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.RecordingListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The chat-completions provider against a fake server speaking OpenAI's chunk format. */
class OpenAiCompletionsProviderTest {
    static final String KEY = "sk-proj-test-KEY-0123456789abcdef";

    FakeProviderServer server;
    SystemScheduler scheduler;
    Provider provider;
    Model model;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        provider = HttpProviders.create(new LazyHttpClient(), scheduler,
                () -> new ProviderTimeouts(5_000, 5_000, 5_000)).get(1);
        model = model("gpt-5-test", true);
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    Model model(String id, boolean reasoning) {
        return new Model(id, id, "openai-completions", "openai", server.baseUrl() + "/v1", reasoning,
                List.of("text", "image"), new Model.Cost(1.25, 10, 0.125, 0), 400_000, 128_000);
    }

    static JsonNode parse(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    AgentMessage.Assistant send(List<AgentMessage> messages, ThinkingLevel level, RecordingListener listener) {
        return provider.stream(new StreamRequest(model, "Be brief.", messages, List.of(), level, KEY,
                Map.of("OpenAI-Organization", "org-test"), "s"), listener, CancellationToken.none());
    }

    AgentMessage.Assistant send() {
        return send(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)), ThinkingLevel.OFF,
                new RecordingListener());
    }

    @Test
    void reasoningTextAndInterleavedToolCallsStreamAsBuilderEventsWithUsageAndCost() {
        server.enqueue(sse(List.of(role(),
                reasoning("reasoning_content", "Think"), reasoning("reasoning_content", "ing."),
                content("Two "), content("calls."),
                toolCallStart(0, "call_A", "read"), toolCallStart(1, "call_B", "ls"),
                toolCallArgs(0, "{\"path\":"), toolCallArgs(1, "{\"dir\":\".\"}"), toolCallArgs(0, "\"a.txt\"}"),
                finish("tool_calls"), usage(1000, 200, 600, 50), done())));
        RecordingListener listener = new RecordingListener(true);

        AgentMessage.Assistant reply = send(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)),
                ThinkingLevel.OFF, listener);

        assertEquals(1, listener.starts());
        assertEquals(List.of("thinking_start", "thinking_delta", "thinking_delta", "thinking_end",
                "text_start", "text_delta", "text_delta", "text_end",
                "toolcall_start", "toolcall_start", "toolcall_delta", "toolcall_delta", "toolcall_delta",
                "toolcall_end", "toolcall_end"), listener.types());
        assertEquals(List.of(2, 3, 2, 3, 2, 2, 3), listener.events().subList(8, 15).stream()
                .map(e -> e.contentIndex()).toList());
        assertEquals(List.of(
                new ContentBlock.Thinking("Thinking.", "reasoning_content", null),
                new ContentBlock.Text("Two calls."),
                new ContentBlock.ToolCall("call_A", "read", Json.mapper().createObjectNode().put("path", "a.txt")),
                new ContentBlock.ToolCall("call_B", "ls", Json.mapper().createObjectNode().put("dir", "."))),
                reply.content());
        assertEquals(StopReason.TOOL_USE, reply.stopReason());
        Usage usage = reply.usage();
        // input = prompt − cached, output = completion + reasoning, total = input + output + cacheRead
        assertEquals(List.of(400L, 250L, 600L, 0L, 1250L),
                List.of(usage.input(), usage.output(), usage.cacheRead(), usage.cacheWrite(), usage.totalTokens()));
        assertEquals(400 * 1.25 / 1e6, usage.cost().input(), 1e-12);
        assertEquals(250 * 10 / 1e6, usage.cost().output(), 1e-12);
        assertEquals(600 * 0.125 / 1e6, usage.cost().cacheRead(), 1e-12);
        assertEquals(0, usage.cost().cacheWrite());
        assertEquals(usage.cost().input() + usage.cost().output() + usage.cost().cacheRead(), usage.cost().total(),
                1e-12);
    }

    @Test
    void openRouterStyleReasoningAndAPlainStop() {
        server.enqueue(sse(List.of(role(), reasoning("reasoning", "hmm"), content("ok"), finish("stop"),
                usage(5, 2, 0, 0), done())));
        AgentMessage.Assistant reply = send();
        assertEquals(List.of(new ContentBlock.Thinking("hmm", "reasoning", null), new ContentBlock.Text("ok")),
                reply.content());
        assertEquals(StopReason.STOP, reply.stopReason());
    }

    @Test
    void finishReasonsMap() {
        server.enqueue(sse(List.of(role(), content("x"), finish("length"), done())),
                sse(List.of(role(), content("x"), finish("content_filter"), done())),
                sse(List.of(role(), content("x"), finish("weird"), done())),
                sse(List.of(role(), content("x"), finish("stop"))));
        assertEquals(StopReason.LENGTH, send().stopReason());
        AgentMessage.Assistant filtered = send();
        assertEquals(StopReason.ERROR, filtered.stopReason());
        assertTrue(filtered.errorMessage().contains("content_filter"));
        assertEquals("Unhandled stop reason: weird", send().errorMessage());
        assertEquals(StopReason.STOP, send().stopReason(), "a finish_reason without [DONE] is complete");
    }

    @Test
    void aRefusalEndsTheReplyAsATypedErrorKeepingTheTextBeforeIt() {
        server.enqueue(sse(List.of(role(), content("Let me see. "), refusal("I'm sorry, "), refusal("I can't help."),
                finish("stop"), usage(20, 5, 0, 0), done())));
        RecordingListener listener = new RecordingListener();
        AgentMessage.Assistant reply = send(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)),
                ThinkingLevel.OFF, listener);
        assertEquals(StopReason.ERROR, reply.stopReason());
        assertEquals(ErrorTypes.REFUSAL, reply.errorType());
        assertEquals("I'm sorry, I can't help.", reply.errorMessage(), "the refusal text is the error");
        assertEquals(List.of(new ContentBlock.Text("Let me see. ")), reply.content(), "streamed text stays");
        assertEquals(List.of("text_start", "text_delta"), listener.types(), "the refusal is not streamed as text");
        assertEquals(ErrorClass.REFUSAL, ErrorClassifier.classify(reply, model.contextWindow()).errorClass());
    }

    @Test
    void theContentFilterIsARefusalToo() {
        server.enqueue(sse(List.of(role(), content("x"), finish("content_filter"), done())));
        AgentMessage.Assistant reply = send();
        assertEquals(ErrorTypes.REFUSAL, reply.errorType());
        assertEquals(ErrorClass.REFUSAL, ErrorClassifier.classify(reply, model.contextWindow()).errorClass());
    }

    @Test
    void providerFieldsAreCutBeforeAnythingReadsThem() {
        String longReason = "r".repeat(200_000);
        String longType = "t".repeat(60_000);
        server.enqueue(sse(List.of(role(), content("x"), finish(longReason), done())),
                sse(List.of(role(), inBandError("boom", longType, null))),
                json(500, errorBody("x".repeat(3_000), longType, null), Map.of()), // within the 64 KB read
                sse(List.of(role(), refusal("no".repeat(600_000)), finish("stop"), done())));
        AgentMessage.Assistant reason = send();
        assertEquals("Unhandled stop reason: " + "r".repeat(TextBounds.MAX_REASON_CHARS), reason.errorMessage());
        AgentMessage.Assistant inBand = send();
        assertEquals(TextBounds.MAX_TYPE_CHARS, inBand.errorType().length());
        assertTrue(inBand.errorMessage().length() <= TextBounds.MAX_BODY_CHARS);
        AgentMessage.Assistant http = send();
        assertEquals(TextBounds.MAX_TYPE_CHARS, http.errorType().length());
        assertEquals(ErrorClass.TRANSIENT, ErrorClassifier.classify(http, model.contextWindow()).errorClass());
        AgentMessage.Assistant refused = send();
        assertEquals(TextBounds.MAX_BODY_CHARS, refused.errorMessage().length());
    }

    @Test
    void aStreamEndingWithoutDoneOrFinishReasonIsTruncated() {
        server.enqueue(sse(List.of(role(), content("Partial"))));
        AgentMessage.Assistant reply = send();
        assertEquals(ErrorTypes.STREAM_TRUNCATED, reply.errorType());
        assertTrue(reply.errorMessage().contains("terminated"));
        assertEquals("Partial", reply.text());
    }

    @Test
    void garbageIsAMalformedStreamEventNamingTheApi() {
        server.enqueue(sse(List.of(role(), content("Partial"), "data: {\"malformed\":true\n\n")));
        AgentMessage.Assistant reply = send();
        assertEquals(ErrorTypes.STREAM_TRUNCATED, reply.errorType());
        assertTrue(reply.errorMessage().startsWith("Malformed openai-completions stream event: {\"malformed\":true"),
                reply.errorMessage());
        assertEquals("Partial", reply.text());
    }

    @Test
    void anInBandErrorChunkUsesItsCode() {
        String chunk = inBandError("Streaming response failed: [500] upstream", "server_error", "server_error");
        server.enqueue(sse(List.of(role(), content("Partial"), chunk)));
        AgentMessage.Assistant reply = send();
        assertEquals(StopReason.ERROR, reply.stopReason());
        assertEquals(chunk.substring(6).trim(), reply.errorMessage());
        assertEquals("server_error", reply.errorType());
        assertNull(reply.errorStatus());
        assertEquals("Partial", reply.text());
    }

    @Test
    void a429ReadsTheErrorCodeAndTheRateLimitResetHeaders() {
        server.enqueue(json(429, errorBody("You exceeded your current quota", "insufficient_quota",
                        "insufficient_quota"), Map.of()),
                json(429, errorBody("Rate limit reached for gpt-5 on tokens per min (TPM). Please try again in 1.2s.",
                        "tokens", "rate_limit_exceeded"),
                        Map.of("x-ratelimit-reset-requests", "120ms", "x-ratelimit-reset-tokens", "6m0s")));
        AgentMessage.Assistant quota = send();
        assertEquals("insufficient_quota", quota.errorType());
        assertTrue(quota.errorMessage().startsWith("429 {\"error\":"), quota.errorMessage());
        AgentMessage.Assistant limited = send();
        assertEquals("rate_limit_exceeded", limited.errorType());
        assertEquals(360_000L, limited.retryAfterMs());
    }

    @Test
    void theRequestCarriesTheConvertedContextKeyAndHeaders() {
        server.enqueue(sse(textReply("ok")));
        ContentBlock.Image image = new ContentBlock.Image("aGVsbG8=", "image/jpeg");
        List<AgentMessage> history = List.of(
                new AgentMessage.User(List.of(new ContentBlock.Text("look"), image), 1),
                Replies.reply().text("broken").from(model).error("500").at(2).build(),
                Replies.reply().content(new ContentBlock.Thinking("private", "reasoning_content", null),
                        new ContentBlock.Text("Reading."),
                        new ContentBlock.ToolCall("call_1", "read", Json.mapper().createObjectNode().put("path", "a")),
                        new ContentBlock.ToolCall("call_2", "ls", Json.mapper().createObjectNode()))
                        .from(model).stop(StopReason.TOOL_USE).at(3).build(),
                new AgentMessage.ToolResult("call_1", "read", List.of(new ContentBlock.Text("content"), image), null,
                        false, 4),
                new AgentMessage.BashExecution("pwd", "/tmp", 0, false, false, null, null, 5),
                new AgentMessage.User(List.of(new ContentBlock.Text("next")), 6));
        JsonNode schema = parse("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}}");
        provider.stream(new StreamRequest(model, "Be brief.", history,
                List.of(new ToolDefinition("read", "Read a file", schema)), ThinkingLevel.HIGH, KEY,
                Map.of("OpenAI-Organization", "org-test"), "s"), new RecordingListener(), CancellationToken.none());

        FakeProviderServer.RecordedRequest sent = server.lastRequest();
        assertEquals("/v1/chat/completions", sent.path());
        assertEquals("Bearer " + KEY, sent.header("authorization"));
        assertEquals("org-test", sent.header("openai-organization"));
        JsonNode body = sent.json();
        assertEquals("gpt-5-test", body.path("model").asText());
        assertEquals(true, body.path("stream").asBoolean());
        assertEquals(true, body.path("stream_options").path("include_usage").asBoolean());
        assertEquals("high", body.path("reasoning_effort").asText());
        assertEquals(parse("""
                [{"type":"function","function":{"name":"read","description":"Read a file",
                  "parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]"""), body.path("tools"));
        assertEquals(parse("""
                [{"role":"system","content":"Be brief."},
                 {"role":"user","content":[{"type":"text","text":"look"},
                   {"type":"image_url","image_url":{"url":"data:image/jpeg;base64,aGVsbG8="}}]},
                 {"role":"assistant","content":"Reading.","tool_calls":[
                   {"id":"call_1","type":"function","function":{"name":"read","arguments":"{\\"path\\":\\"a\\"}"}},
                   {"id":"call_2","type":"function","function":{"name":"ls","arguments":"{}"}}]},
                 {"role":"tool","tool_call_id":"call_1","content":"content"},
                 {"role":"tool","tool_call_id":"call_2","content":"No result provided"},
                 {"role":"user","content":[{"type":"text","text":"Attached image(s) from tool result:"},
                   {"type":"image_url","image_url":{"url":"data:image/jpeg;base64,aGVsbG8="}}]},
                 {"role":"user","content":"Ran `pwd`\\n```\\n/tmp\\n```"},
                 {"role":"user","content":"next"}]"""), body.path("messages"));
    }

    @Test
    void anOutputLimitIsSentOnlyWhenAskedAndUnderTheNameTheServerKnows() {
        List<AgentMessage> hello = List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1));
        Model compatible = model("llama", false);
        Model openAi = new Model("gpt-4.1", "gpt-4.1", "openai-completions", "openai", "https://api.openai.com/v1",
                false, List.of("text"), new Model.Cost(0, 0, 0, 0), 128_000, 32_000);
        JsonNode plain = OpenAiRequest.build(new StreamRequest(compatible, null, hello, List.of(), null, KEY, Map.of(),
                "s"));
        assertTrue(!plain.has("max_tokens") && !plain.has("max_completion_tokens"), plain.toString());
        JsonNode probe = OpenAiRequest.build(new StreamRequest(compatible, null, hello, List.of(), null, KEY, Map.of(),
                "s", 1));
        assertEquals(1, probe.path("max_tokens").asInt(), probe.toString());
        JsonNode official = OpenAiRequest.build(new StreamRequest(openAi, null, hello, List.of(), null, KEY, Map.of(),
                "s", 1));
        assertEquals(1, official.path("max_completion_tokens").asInt(), official.toString());
        assertTrue(!official.has("max_tokens"), official.toString());
    }

    @Test
    void reasoningEffortFollowsTheThinkingLevel() {
        Model gpt5 = model("gpt-5", true);
        Model o3 = model("o3", true);
        Model plain = model("gpt-4o", false);
        assertNull(OpenAiRequest.reasoningEffort(gpt5, ThinkingLevel.OFF));
        assertEquals("minimal", OpenAiRequest.reasoningEffort(gpt5, ThinkingLevel.MINIMAL));
        assertEquals("low", OpenAiRequest.reasoningEffort(o3, ThinkingLevel.MINIMAL));
        assertEquals("low", OpenAiRequest.reasoningEffort(gpt5, ThinkingLevel.LOW));
        assertEquals("medium", OpenAiRequest.reasoningEffort(gpt5, ThinkingLevel.MEDIUM));
        assertEquals("high", OpenAiRequest.reasoningEffort(gpt5, ThinkingLevel.XHIGH));
        assertEquals("xhigh", OpenAiRequest.reasoningEffort(model("gpt-5.2", true), ThinkingLevel.XHIGH));
        assertNull(OpenAiRequest.reasoningEffort(plain, ThinkingLevel.HIGH));
    }

    @Test
    void openAiReasoningModelsGetADeveloperMessage() {
        Model hosted = new Model("o3", "o3", "openai-completions", "openai", "https://api.openai.com/v1", true,
                List.of("text"), Model.Cost.FREE, 200_000, 100_000);
        JsonNode body = OpenAiRequest.build(new StreamRequest(hosted, "sys", List.of(), List.of(), ThinkingLevel.OFF,
                KEY, Map.of(), "s"));
        assertEquals("developer", body.path("messages").get(0).path("role").asText());
        assertTrue(body.path("reasoning_effort").isMissingNode());
    }
}
