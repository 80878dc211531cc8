package dev.agentd.server.ai.anthropic;

import static dev.agentd.server.testing.http.AnthropicWire.chunks;
import static dev.agentd.server.testing.http.AnthropicWire.messageDelta;
import static dev.agentd.server.testing.http.AnthropicWire.messageStart;
import static dev.agentd.server.testing.http.AnthropicWire.messageStop;
import static dev.agentd.server.testing.http.AnthropicWire.ping;
import static dev.agentd.server.testing.http.AnthropicWire.redactedThinkingBlock;
import static dev.agentd.server.testing.http.AnthropicWire.textBlock;
import static dev.agentd.server.testing.http.AnthropicWire.textReply;
import static dev.agentd.server.testing.http.AnthropicWire.thinkingBlock;
import static dev.agentd.server.testing.http.AnthropicWire.toolUseBlock;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AssistantMessageEvent;
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
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.Replies;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.RecordingListener;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Messages API provider against a fake server speaking Anthropic's wire format. */
class AnthropicProviderTest {
    static final String KEY = "sk-ant-api03-test-KEY-0123456789abcdef";

    FakeProviderServer server;
    SystemScheduler scheduler;
    LazyHttpClient client;
    volatile ProviderTimeouts timeouts = new ProviderTimeouts(5_000, 5_000, 5_000);
    Provider provider;
    Model model;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        client = new LazyHttpClient();
        provider = HttpProviders.create(client, scheduler, () -> timeouts).get(0);
        model = new Model("claude-test", "Claude Test", "anthropic-messages", "anthropic", server.baseUrl(), true,
                List.of("text", "image"), new Model.Cost(3, 15, 0.30, 3.75), 200_000, 64_000);
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    StreamRequest request(List<AgentMessage> messages, ThinkingLevel level) {
        return new StreamRequest(model, "You are terse.", messages, List.of(), level, KEY, Map.of("X-Extra", "yes"),
                "session-1");
    }

    AgentMessage.Assistant send(List<AgentMessage> messages, RecordingListener listener) {
        return provider.stream(request(messages, ThinkingLevel.OFF), listener, CancellationToken.none());
    }

    AgentMessage.Assistant send() {
        return send(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)), new RecordingListener());
    }

    static JsonNode parse(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void thinkingTextAndAToolCallStreamAsBuilderEventsWithUsageAndCost() {
        server.enqueue(sse(chunks(messageStart(100, 20, 10), ping(),
                thinkingBlock(0, "sig-abc", "Let me ", "think."),
                textBlock(1, "Hello", " world"),
                toolUseBlock(2, "toolu_01A", "read", "{\"path\":", " \"a.txt\"}"),
                messageDelta("tool_use", 50), messageStop())));
        RecordingListener listener = new RecordingListener(true);

        AgentMessage.Assistant reply = send(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)),
                listener);

        assertEquals(1, listener.starts());
        assertEquals(List.of("thinking_start", "thinking_delta", "thinking_delta", "thinking_end",
                "text_start", "text_delta", "text_delta", "text_end",
                "toolcall_start", "toolcall_delta", "toolcall_delta", "toolcall_end"), listener.types());
        AssistantMessageEvent end = listener.events().get(11);
        assertEquals(2, end.contentIndex());
        assertEquals(Json.mapper().createObjectNode().put("path", "a.txt"), end.toolCall().arguments());
        assertEquals(List.of(new ContentBlock.Thinking("Let me think.", "sig-abc", null),
                new ContentBlock.Text("Hello world"),
                new ContentBlock.ToolCall("toolu_01A", "read", Json.mapper().createObjectNode().put("path", "a.txt"))),
                reply.content());
        assertEquals(StopReason.TOOL_USE, reply.stopReason());
        assertEquals("anthropic-messages", reply.api());
        assertEquals("claude-test", reply.model());
        Usage usage = reply.usage();
        assertEquals(List.of(100L, 50L, 20L, 10L, 180L),
                List.of(usage.input(), usage.output(), usage.cacheRead(), usage.cacheWrite(), usage.totalTokens()));
        assertEquals(100 * 3 / 1e6, usage.cost().input(), 1e-12);
        assertEquals(50 * 15 / 1e6, usage.cost().output(), 1e-12);
        assertEquals(20 * 0.30 / 1e6, usage.cost().cacheRead(), 1e-12);
        assertEquals(10 * 3.75 / 1e6, usage.cost().cacheWrite(), 1e-12);
        assertEquals(usage.cost().input() + usage.cost().output() + usage.cost().cacheRead()
                + usage.cost().cacheWrite(), usage.cost().total(), 1e-12);
        assertEquals(1, server.requestCount());
    }

    @Test
    void redactedThinkingKeepsItsPayloadAndPlainTextEndsWithStop() {
        server.enqueue(sse(chunks(messageStart(5, 0, 0), redactedThinkingBlock(0, "EmwKAhgBEgy"),
                textBlock(1, "ok"), messageDelta("end_turn", 3), messageStop())));
        AgentMessage.Assistant reply = send();
        assertEquals(List.of(new ContentBlock.Thinking("", "EmwKAhgBEgy", true), new ContentBlock.Text("ok")),
                reply.content());
        assertEquals(StopReason.STOP, reply.stopReason());
    }

    @Test
    void stopReasonsMap() {
        for (Map.Entry<String, StopReason> entry : Map.of("end_turn", StopReason.STOP, "stop_sequence",
                StopReason.STOP, "pause_turn", StopReason.STOP, "max_tokens", StopReason.LENGTH, "tool_use",
                StopReason.TOOL_USE).entrySet()) {
            server.enqueue(sse(chunks(messageStart(1, 0, 0), textBlock(0, "x"), messageDelta(entry.getKey(), 1),
                    messageStop())));
            assertEquals(entry.getValue(), send().stopReason(), entry.getKey());
        }
        server.enqueue(sse(chunks(messageStart(1, 0, 0), messageDelta("refusal", 1), messageStop())));
        AgentMessage.Assistant refused = send();
        assertEquals(StopReason.ERROR, refused.stopReason());
        assertTrue(refused.errorMessage().contains("refused"));
        server.enqueue(sse(chunks(messageStart(1, 0, 0), messageDelta("brand_new", 1), messageStop())));
        assertEquals("Unhandled stop reason: brand_new", send().errorMessage());
    }

    @Test
    void aRefusalIsAnErrorTypedRefusalKeepingTheTextBeforeIt() {
        server.enqueue(sse(chunks(messageStart(5, 0, 0), textBlock(0, "I will not "), messageDelta("refusal", 3),
                messageStop())));
        AgentMessage.Assistant refused = send();
        assertEquals(StopReason.ERROR, refused.stopReason());
        assertEquals(ErrorTypes.REFUSAL, refused.errorType());
        assertEquals(List.of(new ContentBlock.Text("I will not ")), refused.content());
        assertEquals(ErrorClass.REFUSAL, ErrorClassifier.classify(refused, model.contextWindow()).errorClass());
    }

    @Test
    void maxThinkingGetsTheLargestBudget() {
        assertTrue(AnthropicRequest.budget(ThinkingLevel.MAX) > AnthropicRequest.budget(ThinkingLevel.XHIGH));
    }

    @Test
    void aHugeStopReasonIsCutBeforeItIsQuoted() {
        server.enqueue(sse(chunks(messageStart(5, 0, 0), messageDelta("s".repeat(200_000), 3), messageStop())));
        AgentMessage.Assistant reply = send();
        assertEquals("Unhandled stop reason: " + "s".repeat(TextBounds.MAX_REASON_CHARS), reply.errorMessage());
    }

    @Test
    void theRequestCarriesTheConvertedContextKeyAndHeaders() {
        server.enqueue(sse(textReply("ok")));
        ContentBlock.Image image = new ContentBlock.Image("aGVsbG8=", "image/png");
        List<AgentMessage> history = List.of(
                new AgentMessage.User(List.of(new ContentBlock.Text("look"), image), 1),
                Replies.reply().text("broken").from(model).error("529 overloaded").at(2).build(),
                Replies.reply().text("cut").from(model).failed(StopReason.ABORTED, "Request was aborted").at(3).build(),
                Replies.reply().content(new ContentBlock.Thinking("plan", "sig-1", null),
                        new ContentBlock.Text("Reading."),
                        new ContentBlock.ToolCall("toolu_1", "read", Json.mapper().createObjectNode().put("path", "a")),
                        new ContentBlock.ToolCall("toolu_2", "bash", Json.mapper().createObjectNode().put("c", "ls")))
                        .from(model).stop(StopReason.TOOL_USE).at(4).build(),
                new AgentMessage.ToolResult("toolu_1", "read", List.of(new ContentBlock.Text("content of a"), image),
                        null, false, 5),
                new AgentMessage.BashExecution("ls", "a\nb", 0, false, false, null, null, 6),
                new AgentMessage.User(List.of(new ContentBlock.Text("next")), 7));
        JsonNode tool = Json.mapper().createObjectNode().put("type", "object");
        StreamRequest request = new StreamRequest(model, "You are terse.", history,
                List.of(new ToolDefinition("read", "Read a file", tool)), ThinkingLevel.OFF, KEY,
                Map.of("X-Extra", "yes", "anthropic-beta", "fine-grained-tool-streaming-2025-05-14"), "s");

        provider.stream(request, new RecordingListener(), CancellationToken.none());

        FakeProviderServer.RecordedRequest sent = server.lastRequest();
        assertEquals("POST", sent.method());
        assertEquals("/v1/messages", sent.path());
        assertEquals(KEY, sent.header("x-api-key"));
        assertEquals("2023-06-01", sent.header("anthropic-version"));
        assertEquals("application/json", sent.header("content-type"));
        assertEquals("yes", sent.header("x-extra"));
        assertEquals("fine-grained-tool-streaming-2025-05-14", sent.header("anthropic-beta"));
        assertNull(sent.header("authorization"));
        JsonNode body = sent.json();
        assertEquals("claude-test", body.path("model").asText());
        assertTrue(body.path("stream").asBoolean());
        assertTrue(body.path("max_tokens").asLong() > 0);
        assertTrue(body.path("thinking").isMissingNode(), "thinking off");
        assertEquals("You are terse.", body.path("system").get(0).path("text").asText());
        assertEquals("ephemeral", body.path("system").get(0).path("cache_control").path("type").asText());
        assertEquals(parse("""
                [{"name":"read","description":"Read a file","input_schema":{"type":"object"}}]"""), body.path("tools"));
        JsonNode messages = body.path("messages");
        assertEquals(parse("""
                [{"role":"user","content":[{"type":"text","text":"look"},
                   {"type":"image","source":{"type":"base64","media_type":"image/png","data":"aGVsbG8="}}]},
                 {"role":"assistant","content":[{"type":"thinking","thinking":"plan","signature":"sig-1"},
                   {"type":"text","text":"Reading."},
                   {"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a"}},
                   {"type":"tool_use","id":"toolu_2","name":"bash","input":{"c":"ls"}}]},
                 {"role":"user","content":[
                   {"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"content of a"},
                     {"type":"image","source":{"type":"base64","media_type":"image/png","data":"aGVsbG8="}}],
                    "is_error":false},
                   {"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"No result provided"}],
                    "is_error":true}]},
                 {"role":"user","content":[{"type":"text","text":"Ran `ls`\\n```\\na\\nb\\n```"}]},
                 {"role":"user","content":[{"type":"text","text":"next","cache_control":{"type":"ephemeral"}}]}]
                """), messages);
    }

    @Test
    void thinkingLevelsSendABudgetBelowMaxTokens() {
        server.enqueue(sse(textReply("ok")), sse(textReply("ok")));
        provider.stream(request(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)),
                ThinkingLevel.MEDIUM), new RecordingListener(), CancellationToken.none());
        JsonNode medium = server.lastRequest().json();
        assertEquals("enabled", medium.path("thinking").path("type").asText());
        assertEquals(10_240, medium.path("thinking").path("budget_tokens").asLong());
        assertTrue(medium.path("max_tokens").asLong() > 10_240);

        model = new Model("claude-small", "Small", model.api(), model.provider(), model.baseUrl(), true, model.input(),
                model.cost(), 200_000, 16_000);
        provider.stream(request(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)),
                ThinkingLevel.HIGH), new RecordingListener(), CancellationToken.none());
        JsonNode high = server.lastRequest().json();
        assertTrue(high.path("max_tokens").asLong() <= 16_000);
        assertTrue(high.path("thinking").path("budget_tokens").asLong() < high.path("max_tokens").asLong());
    }

    @Test
    void aCompletedStreamLeavesItsConnectionForTheNextRequest() {
        // The body's end arrives after message_stop: reading it is what keeps the connection.
        server.enqueue(sse(textReply("one")).ending(FakeProviderServer.End.FINISH_LATE), sse(textReply("two")));
        assertEquals("one", send().text());
        assertEquals("two", send().text());
        List<FakeProviderServer.RecordedRequest> requests = server.requests();
        assertEquals(requests.get(0).clientPort(), requests.get(1).clientPort(), "connection reused");
    }

    @Test
    void theHttpClientIsCreatedByTheFirstRequestOnly() {
        assertFalse(client.created(), "building providers must not build the client");
        server.enqueue(sse(textReply("ok")));
        send();
        assertTrue(client.created());
    }
}
