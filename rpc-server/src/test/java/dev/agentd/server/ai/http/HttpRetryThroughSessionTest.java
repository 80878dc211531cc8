package dev.agentd.server.ai.http;

import static dev.agentd.server.testing.Waits.await;
import static dev.agentd.server.testing.http.FakeProviderServer.json;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real providers over real HTTP to the fake server, driven by a session on fake time: the retry
 * policy sees exactly what the providers produce. The providers' own timers run on a real
 * scheduler (stream timeouts are real I/O); the session's backoff sleeps run on the harness's
 * FakeScheduler, advanced by the test.
 */
class HttpRetryThroughSessionTest {
    static final String KEY = "sk-ant-api03-session-KEY-fedcba9876543210";

    @TempDir
    Path dir;
    FakeProviderServer server;
    SystemScheduler providerClock;
    volatile ProviderTimeouts timeouts = new ProviderTimeouts(5_000, 5_000, 5_000);
    List<Provider> providers;
    SessionHarness harness;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        providerClock = new SystemScheduler();
        providers = HttpProviders.create(providerClock, () -> timeouts);
    }

    @AfterEach
    void tearDown() {
        if (harness != null) {
            harness.close();
        }
        server.close();
        providerClock.close();
    }

    Model anthropic() {
        return new Model("claude-test", "Claude Test", "anthropic-messages", "anthropic", server.baseUrl(), false,
                List.of("text"), new Model.Cost(3, 15, 0.3, 3.75), 200_000, 8_192);
    }

    Model openai() {
        return new Model("gpt-test", "GPT Test", "openai-completions", "openai", server.baseUrl() + "/v1", false,
                List.of("text"), new Model.Cost(1, 4, 0.1, 0), 128_000, 16_384);
    }

    SessionHarness start(Model model) {
        Provider provider = model.api().equals("anthropic-messages") ? providers.get(0) : providers.get(1);
        harness = SessionHarness.builder(dir).provider(provider, model).credentials(model.provider(), KEY).build();
        return harness;
    }

    /** Prompts, then lets each expected backoff sleep elapse on fake time, and waits for the prompt. */
    void promptThroughRetries(long... delays) {
        CompletableFuture<Void> done = harness.session.prompt("hi");
        for (long delay : delays) {
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(delay)));
            harness.scheduler.advance(delay);
        }
        await().until(done::isDone);
    }

    List<AgentMessage.Assistant> replies() {
        return harness.events(AgentEvent.MessageEnd.class).stream().map(AgentEvent.MessageEnd::message)
                .filter(AgentMessage.Assistant.class::isInstance).map(AgentMessage.Assistant.class::cast).toList();
    }

    void assertRetriedThenSucceeded(int retries) {
        assertRetriedThenSucceeded(retries, "recovered");
    }

    void assertRetriedThenSucceeded(int retries, String text) {
        List<AgentEvent.AutoRetryStart> starts = harness.events(AgentEvent.AutoRetryStart.class);
        assertEquals(retries, starts.size());
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(true, retries, null)),
                harness.events(AgentEvent.AutoRetryEnd.class));
        assertEquals(retries + 1, server.requestCount(), "exactly one request per attempt");
        AgentMessage.Assistant last = replies().get(replies().size() - 1);
        assertEquals(StopReason.STOP, last.stopReason(), last.errorMessage());
        assertEquals(text, last.text());
        server.requests().forEach(request -> assertEquals(KEY, request.header("x-api-key") != null
                ? request.header("x-api-key") : request.header("authorization").substring(7)));
    }

    void assertNotRetried(int status) {
        assertEquals(List.of(), harness.events(AgentEvent.AutoRetryStart.class));
        assertEquals(1, server.requestCount());
        AgentMessage.Assistant last = replies().get(replies().size() - 1);
        assertEquals(StopReason.ERROR, last.stopReason());
        assertEquals(status, last.errorStatus());
        assertTrue(!last.errorMessage().contains(KEY));
    }

    @Test
    void overloaded529AndServerErrors500And503AreRetriedUntilARequestSucceeds() {
        start(anthropic());
        server.enqueue(json(529, AnthropicWire.errorBody("overloaded_error", "Overloaded"), Map.of()),
                json(500, AnthropicWire.errorBody("api_error", "Internal server error"), Map.of()),
                json(503, "", Map.of()),
                sse(AnthropicWire.textReply("recov", "ered")));
        promptThroughRetries(2000, 4000, 8000);
        assertRetriedThenSucceeded(3);
        List<String> errors = harness.events(AgentEvent.AutoRetryStart.class).stream()
                .map(AgentEvent.AutoRetryStart::errorMessage).toList();
        assertTrue(errors.get(0).startsWith("529 "));
        assertTrue(errors.get(1).startsWith("500 "));
        assertEquals("503 status code (no body)", errors.get(2));
    }

    @Test
    void anInBandOverloadedErrorAfterSomeTextIsRetried() {
        start(anthropic());
        server.enqueue(sse(AnthropicWire.chunks(AnthropicWire.messageStart(10, 0, 0),
                        AnthropicWire.textBlock(0, "Partial"), AnthropicWire.error("overloaded_error", "Overloaded"))),
                sse(AnthropicWire.textReply(" recovered")));
        promptThroughRetries(2000);
        // retry.keepPartial (SPEC §5.9): the cut text is continued by prefill and joined to the continuation
        assertRetriedThenSucceeded(1, "Partial recovered");
        assertEquals("Partial", replies().get(0).text(), "the failed attempt kept its partial text");
    }

    @Test
    void aConnectionDroppedMidStreamIsRetried() {
        start(openai());
        server.enqueue(sse(List.of(OpenAiWire.role(), OpenAiWire.content("Part"))).ending(FakeProviderServer.End.DROP),
                sse(OpenAiWire.textReply("recov", "ered")));
        promptThroughRetries(2000);
        assertRetriedThenSucceeded(1);
        assertTrue(replies().get(0).errorMessage().startsWith("Connection error: "));
    }

    @Test
    void aStreamThatHangsAfterItsFirstEventHitsTheIdleTimeoutAndIsRetried() {
        timeouts = new ProviderTimeouts(5_000, 5_000, 300);
        start(anthropic());
        server.enqueue(sse(List.of(AnthropicWire.messageStart(10, 0, 0), AnthropicWire.ping()))
                        .ending(FakeProviderServer.End.HANG),
                sse(AnthropicWire.textReply("recovered")));
        promptThroughRetries(2000);
        assertRetriedThenSucceeded(1);
        assertEquals("stream idle timeout after 300 ms", replies().get(0).errorMessage());
    }

    @Test
    void anAuthenticationFailureIsNotRetried() {
        start(anthropic());
        server.enqueue(json(401, AnthropicWire.errorBody("authentication_error", "invalid x-api-key"), Map.of()));
        promptThroughRetries();
        assertNotRetried(401);
    }

    @Test
    void aContextOverflowIsNotRetried() {
        start(anthropic());
        harness.session.settings().setAutoCompaction(false); // overflow would otherwise go to compaction (SPEC §8)
        server.enqueue(json(400, AnthropicWire.errorBody("invalid_request_error",
                "prompt is too long: 213462 tokens > 200000 maximum"), Map.of()));
        promptThroughRetries();
        assertNotRetried(400);
    }

    @Test
    void openAiInsufficientQuotaIsNotRetriedDespiteIts429() {
        start(openai());
        server.enqueue(json(429, OpenAiWire.errorBody("You exceeded your current quota, please check your plan and "
                + "billing details.", "insufficient_quota", "insufficient_quota"), Map.of("retry-after", "1")));
        promptThroughRetries();
        assertNotRetried(429);
        assertEquals("insufficient_quota", replies().get(0).errorType());
    }

    @Test
    void anthropicSpendLimitIsNotRetriedDespiteIts429() {
        start(anthropic());
        String body = "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"You have reached "
                + "your specified workspace API usage limits.\",\"details\":{\"error_code\":"
                + "\"enforced_spend_limit_reached\"}},\"request_id\":\"req_011\"}";
        server.enqueue(json(429, body, Map.of("retry-after", "30")));
        promptThroughRetries();
        assertNotRetried(429);
        assertEquals(30_000L, replies().get(0).retryAfterMs());
    }

    @Test
    void abortDuringAStreamEndsTheRunAtOnceWithAnAbortedReply() {
        start(anthropic());
        String[] deltas = new String[400];
        java.util.Arrays.fill(deltas, "tok ");
        server.enqueue(sse(AnthropicWire.textReply(deltas)).withDelay(20));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        harness.awaitEvent(event -> event instanceof AgentEvent.MessageUpdate update
                && update.assistantMessageEvent().type().equals("text_delta"));
        harness.session.abort().join();
        await().until(done::isDone);
        AgentMessage.Assistant last = replies().get(replies().size() - 1);
        assertEquals(StopReason.ABORTED, last.stopReason());
        assertTrue(last.text().startsWith("tok"), "partial content kept");
        assertEquals(List.of(), harness.events(AgentEvent.AutoRetryStart.class));
        await().until(() -> server.disconnects() >= 1);
        assertEquals(1, server.requestCount());
    }
}
