package dev.agentd.server.ai.http;

import static dev.agentd.server.testing.Waits.await;
import static dev.agentd.server.testing.http.FakeProviderServer.json;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.TextBounds;
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
 * Hostile provider text over real HTTP, through a session: retry hints and error fields that used
 * to wedge the run thread (a StackOverflowError in hint parsing, quadratic classification) now end
 * the attempt normally and the retry chain carries on; refusals are never retried on the same model.
 * The session runs on fake time; each backoff sleep is released whatever its length, since the
 * delay policy is not the subject here.
 */
class HostileProviderTextTest {
    static final String KEY = "sk-ant-api03-hostile-KEY-0123456789abcdef";

    @TempDir
    Path dir;
    FakeProviderServer server;
    SystemScheduler providerClock;
    List<Provider> providers;
    SessionHarness harness;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        providerClock = new SystemScheduler();
        providers = HttpProviders.create(providerClock, () -> new ProviderTimeouts(5_000, 5_000, 5_000));
    }

    @AfterEach
    void tearDown() {
        if (harness != null) {
            harness.close();
        }
        server.close();
        providerClock.close();
    }

    void start(String api) {
        boolean anthropic = api.equals("anthropic-messages");
        Model model = new Model("m-test", "Test", api, anthropic ? "anthropic" : "openai",
                server.baseUrl() + (anthropic ? "" : "/v1"), false, List.of("text"), Model.Cost.FREE, 200_000, 8_192);
        harness = SessionHarness.builder(dir).provider(providers.get(anthropic ? 0 : 1), model)
                .credentials(model.provider(), KEY).build();
    }

    /** Prompts and releases every backoff sleep until the prompt (and its retry chain) is done. */
    void promptToTheEnd() {
        CompletableFuture<Void> done = harness.session.prompt("hi");
        await().until(() -> {
            List<Long> pending = harness.scheduler.pendingDelays();
            if (!pending.isEmpty()) {
                harness.scheduler.advance(pending.get(0));
            }
            return done.isDone();
        });
    }

    List<AgentMessage.Assistant> replies() {
        return harness.events(AgentEvent.MessageEnd.class).stream().map(AgentEvent.MessageEnd::message)
                .filter(AgentMessage.Assistant.class::isInstance).map(AgentMessage.Assistant.class::cast).toList();
    }

    void assertRetriedOnceThenRecovered() {
        assertEquals(2, server.requestCount());
        assertEquals(1, harness.events(AgentEvent.AutoRetryStart.class).size());
        AgentMessage.Assistant last = replies().get(replies().size() - 1);
        assertEquals(StopReason.STOP, last.stopReason(), last.errorMessage());
        assertEquals("recovered", last.text());
    }

    @Test
    void aHugeTryAgainChainInA429BodyIsNoHintAndTheRetryGoesOn() {
        start("openai-completions");
        String body = OpenAiWire.errorBody("Rate limit reached. Please try again in " + "1a".repeat(600_000),
                "requests", "rate_limit_exceeded");
        server.enqueue(json(429, body, Map.of()), sse(OpenAiWire.textReply("recovered")));
        promptToTheEnd();
        assertRetriedOnceThenRecovered();
        AgentMessage.Assistant limited = replies().get(0);
        assertEquals(null, limited.retryAfterMs());
        assertTrue(limited.errorMessage().length() <= TextBounds.MAX_ERROR_MESSAGE_CHARS);
    }

    @Test
    void aHugeResetHeaderIsNoHintAndTheRetryGoesOn() {
        start("openai-completions");
        server.enqueue(json(429, OpenAiWire.errorBody("Rate limit reached", "requests", "rate_limit_exceeded"),
                Map.of("x-ratelimit-reset-requests", "1s".repeat(20_000))), sse(OpenAiWire.textReply("recovered")));
        promptToTheEnd();
        assertRetriedOnceThenRecovered();
        assertEquals(null, replies().get(0).retryAfterMs());
    }

    @Test
    void aHugeErrorTypeInA500IsCutAndTheRetryGoesOn() {
        start("anthropic-messages");
        server.enqueue(json(500, AnthropicWire.errorBody("a".repeat(60_000) + "spend_limit_exceeded", "boom"),
                Map.of()), sse(AnthropicWire.textReply("recovered")));
        promptToTheEnd();
        assertRetriedOnceThenRecovered();
        assertEquals(TextBounds.MAX_TYPE_CHARS, replies().get(0).errorType().length());
    }

    @Test
    void hugeInBandTypesAndStopReasonsEndTheRunPromptly() {
        start("anthropic-messages");
        server.enqueue(sse(AnthropicWire.chunks(AnthropicWire.messageStart(1, 0, 0),
                AnthropicWire.error("a".repeat(200_000), "x"))));
        promptToTheEnd();
        assertEquals(StopReason.ERROR, replies().get(0).stopReason());
        harness.close();
        harness = null;
        start("openai-completions");
        server.enqueue(sse(List.of(OpenAiWire.role(), OpenAiWire.finish("f".repeat(200_000)), OpenAiWire.done())));
        promptToTheEnd();
        assertTrue(replies().get(0).errorMessage().startsWith("Unhandled stop reason: fff"));
    }

    @Test
    void anAnthropicRefusalIsNotRetried() {
        start("anthropic-messages");
        server.enqueue(sse(AnthropicWire.chunks(AnthropicWire.messageStart(5, 0, 0),
                AnthropicWire.textBlock(0, "Partial"), AnthropicWire.messageDelta("refusal", 2),
                AnthropicWire.messageStop())));
        promptToTheEnd();
        assertNotRetriedRefusal();
        assertEquals(List.of(new ContentBlock.Text("Partial")), replies().get(0).content());
    }

    @Test
    void anOpenAiRefusalIsNotRetried() {
        start("openai-completions");
        server.enqueue(sse(List.of(OpenAiWire.role(), OpenAiWire.refusal("I can't help with that."),
                OpenAiWire.finish("stop"), OpenAiWire.done())));
        promptToTheEnd();
        assertNotRetriedRefusal();
        assertEquals("I can't help with that.", replies().get(0).errorMessage());
    }

    void assertNotRetriedRefusal() {
        assertEquals(1, server.requestCount());
        assertEquals(List.of(), harness.events(AgentEvent.AutoRetryStart.class));
        AgentMessage.Assistant reply = replies().get(0);
        assertEquals(StopReason.ERROR, reply.stopReason());
        assertEquals(ErrorTypes.REFUSAL, reply.errorType());
    }
}
