package dev.agentd.server.ai.http;

import static dev.agentd.server.testing.http.AnthropicWire.errorBody;
import static dev.agentd.server.testing.http.AnthropicWire.textReply;
import static dev.agentd.server.testing.http.FakeProviderServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.RecordingListener;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every reply's rate-limit headers reach the listener: a streamed answer's and an HTTP error's alike. */
class RateLimitRepliesTest {
    private static final Map<String, String> HEADERS = Map.of(
            "anthropic-ratelimit-unified-status", "allowed",
            "anthropic-ratelimit-unified-5h-utilization", "0.62",
            "anthropic-ratelimit-unified-5h-reset", "1778479200",
            "anthropic-ratelimit-unified-5h-status", "allowed");

    FakeProviderServer server;
    SystemScheduler scheduler;
    Provider provider;
    Model model;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        provider = HttpProviders.create(new LazyHttpClient(), scheduler, () -> new ProviderTimeouts(5_000, 5_000,
                5_000)).get(0);
        model = new Model("claude-test", "Claude Test", "anthropic-messages", "anthropic", server.baseUrl(), false,
                List.of("text"), new Model.Cost(3, 15, 0.30, 3.75), 200_000, 8_192);
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    private AgentMessage.Assistant send(RecordingListener listener) {
        StreamRequest request = new StreamRequest(model, "sys",
                List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)), List.of(), ThinkingLevel.OFF,
                "sk-ant-test-0123456789", Map.of(), "s");
        return provider.stream(request, listener, CancellationToken.none());
    }

    @Test
    void aStreamedAnswersHeadersAreRead() {
        Map<String, String> headers = new java.util.HashMap<>(HEADERS);
        headers.put("content-type", "text/event-stream");
        server.enqueue(new FakeProviderServer.Stream(200, headers, textReply("fine"), 0, FakeProviderServer.End.FINISH));
        RecordingListener listener = new RecordingListener();
        assertEquals(StopReason.STOP, send(listener).stopReason());
        List<RateLimits> limits = listener.rateLimits();
        assertEquals(1, limits.size());
        assertEquals(0.62, limits.get(0).windows().get("5h").utilization());
        assertEquals(1_778_479_200_000L, limits.get(0).windows().get("5h").resetAt());
    }

    @Test
    void anErrorRepliesHeadersAreReadToo() {
        server.enqueue(json(429, errorBody("rate_limit_error", "Number of requests has exceeded your rate limit"),
                HEADERS));
        RecordingListener listener = new RecordingListener();
        assertEquals(StopReason.ERROR, send(listener).stopReason());
        assertEquals(0.62, listener.rateLimits().get(0).utilization());
    }

    @Test
    void aReplyWithoutThemReportsNothing() {
        server.enqueue(FakeProviderServer.sse(textReply("fine")));
        RecordingListener listener = new RecordingListener();
        send(listener);
        assertEquals(List.of(), listener.rateLimits());
    }
}
