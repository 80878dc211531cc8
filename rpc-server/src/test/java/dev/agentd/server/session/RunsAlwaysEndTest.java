package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any throwable in a run — an {@code Error} included — ends that run with a report and returns the
 * session to idle; the next prompt works (issue: an {@code Error} on the run thread wedged the session).
 */
class RunsAlwaysEndTest {
    @TempDir
    Path dir;

    /** A tool that throws {@code error} (a StackOverflowError from a regex, an OutOfMemoryError from a file). */
    private static Tool throwing(String name, Error error) {
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return new ToolDefinition(name, "throws", Json.mapper().createObjectNode());
            }

            @Override
            public ToolResult execute(String id, JsonNode args, CancellationToken cancel,
                    Consumer<ToolOutput> onUpdate) {
                throw error;
            }
        };
    }

    private static void assertIdleAndServing(SessionHarness harness, String expectedText) {
        assertFalse(harness.session.state().isStreaming(), "get_state must say idle");
        harness.enqueue(FauxStep.text(expectedText));
        CompletableFuture<Void> next = harness.session.prompt("again");
        await().until(next::isDone);
        assertEquals(expectedText, harness.session.lastAssistantText().orElse(null));
    }

    @Test
    void aToolThatThrowsStackOverflowErrorBecomesAToolErrorAndTheRunGoesOn() {
        try (SessionHarness harness = SessionHarness.builder(dir)
                .tool(throwing("deep", new StackOverflowError()))
                .tool(throwing("huge", new OutOfMemoryError("Java heap space")))
                .build()) {
            harness.enqueue(FauxStep.toolCall("deep", Json.mapper().createObjectNode()),
                    FauxStep.toolCall("huge", Json.mapper().createObjectNode()), FauxStep.text("handled"));
            await().until(harness.session.prompt("go")::isDone);

            List<AgentEvent.ToolExecutionEnd> ends = harness.events(AgentEvent.ToolExecutionEnd.class);
            assertEquals(2, ends.size());
            assertTrue(ends.get(0).isError());
            assertEquals("Tool deep failed: StackOverflowError", text(ends.get(0).result()));
            assertTrue(ends.get(1).isError());
            assertEquals("Tool huge failed: OutOfMemoryError (Java heap space)", text(ends.get(1).result()));
            assertEquals("handled", harness.session.lastAssistantText().orElse(null));
            assertEquals(List.of(false), harness.events(AgentEvent.AgentEnd.class).stream()
                    .map(AgentEvent.AgentEnd::willRetry).toList());
            assertIdleAndServing(harness, "second");
        }
    }

    private static String text(ToolOutput output) {
        return ((ContentBlock.Text) output.content().get(0)).text();
    }

    /** A provider whose first call throws StackOverflowError (e.g. a hostile retry hint) and then answers. */
    private static final class OverflowingProvider implements Provider {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public String api() {
            return ScriptedProvider.API;
        }

        @Override
        public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
            if (calls.getAndIncrement() == 0) {
                throw new StackOverflowError();
            }
            return new AgentMessage.Assistant(List.of(new ContentBlock.Text("fine")), api(), "scripted",
                    "scripted-1", null, StopReason.STOP, null, 0);
        }
    }

    @Test
    void aProviderThatThrowsStackOverflowErrorEndsTheRunWithAnErrorReply() {
        OverflowingProvider provider = new OverflowingProvider();
        try (SessionHarness harness = SessionHarness.builder(dir)
                .provider(provider, ScriptedProvider.MODEL)
                .credentials("scripted", "key")
                .build()) {
            await().until(harness.session.prompt("go")::isDone);

            List<AgentEvent.AgentEnd> ends = harness.events(AgentEvent.AgentEnd.class);
            assertEquals(1, ends.size());
            assertFalse(ends.get(0).willRetry(), "a crash is not retried");
            AgentMessage last = ends.get(0).messages().get(ends.get(0).messages().size() - 1);
            AgentMessage.Assistant reply = (AgentMessage.Assistant) last;
            assertEquals(StopReason.ERROR, reply.stopReason());
            assertEquals("Provider failed: StackOverflowError", reply.errorMessage());
            assertEquals(List.of(), harness.events(AgentEvent.AutoRetryStart.class));

            assertFalse(harness.session.state().isStreaming());
            await().until(harness.session.prompt("again")::isDone);
            assertEquals("fine", harness.session.lastAssistantText().orElse(null));
            assertEquals(2, provider.calls.get());
        }
    }

    @Test
    void anErrorOutsideToolsAndProvidersEndsTheRunAndClosesTheChain() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            // A listener that throws an Error escapes the event bus, so the loop itself throws.
            AtomicInteger starts = new AtomicInteger();
            harness.session.subscribe(event -> {
                if (event instanceof AgentEvent.AgentStart && starts.incrementAndGet() == 2) {
                    throw new StackOverflowError();
                }
            });
            harness.enqueue(FauxStep.error("529 overloaded", 529));
            CompletableFuture<Void> done = harness.session.prompt("go");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
            harness.scheduler.advance(2000);
            await().until(done::isDone);
            // The retried attempt's agent_start throws: the open chain ends, one final agent_end follows.
            List<AgentEvent.AgentEnd> ends = harness.events(AgentEvent.AgentEnd.class);
            assertEquals(List.of(true, false), ends.stream().map(AgentEvent.AgentEnd::willRetry).toList());
            assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 1, "Internal error: StackOverflowError")),
                    harness.events(AgentEvent.AutoRetryEnd.class));
            assertEquals(0, harness.session.state().retryAttempt());
            assertFalse(harness.session.state().isRetrying());
            assertIdleAndServing(harness, "second");
        }
    }

    @Test
    void abortAnswersWithinItsBoundWhileAToolIgnoresCancellation() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        Tool stubborn = new Tool() {
            @Override
            public ToolDefinition definition() {
                return new ToolDefinition("stubborn", "ignores cancel", Json.mapper().createObjectNode());
            }

            @Override
            public ToolResult execute(String id, JsonNode args, CancellationToken cancel,
                    Consumer<ToolOutput> onUpdate) throws InterruptedException {
                entered.countDown();
                release.await();
                return ToolResult.text("late");
            }
        };
        try (SessionHarness harness = SessionHarness.builder(dir).tool(stubborn).build()) {
            harness.enqueue(FauxStep.toolCall("stubborn", Json.mapper().createObjectNode()), FauxStep.text("after"));
            CompletableFuture<Void> done = harness.session.prompt("go");
            entered.await();
            CompletableFuture<Void> aborted = harness.session.abort();
            assertFalse(aborted.isDone());
            harness.scheduler.advance(RunControl.ABORT_WAIT_MS);
            assertTrue(aborted.isDone(), "abort is answered after its bound");
            assertTrue(harness.session.state().isStreaming(), "and get_state tells the truth");
            release.countDown();
            await().until(done::isDone);
            assertFalse(harness.session.state().isStreaming());
        }
    }
}
