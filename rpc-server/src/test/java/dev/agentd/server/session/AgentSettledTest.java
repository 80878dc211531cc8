package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pi 1.6's {@code agent_settled}: once per logical run, after its last {@code agent_end} — after every
 * retry, fallback switch, overflow continuation and queued follow-up — with {@code aborted} true only
 * when an {@code abort} ended the run. A run that never started (preflight failure) and a manual
 * compaction do not settle, as in pi.
 */
class AgentSettledTest {
    private static final String OVERLOADED =
            "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
    private static final String OVERFLOW = "400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
            + "\"message\":\"prompt is too long: 213462 tokens > 200000 maximum\"}}";

    @TempDir
    Path dir;

    /** Exactly {@code expected} settled events so far, the last one the session's last event of all. */
    private static void assertSettledLast(SessionHarness harness, AgentEvent.AgentSettled... expected) {
        List<String> types = harness.types();
        assertEquals(List.of(expected), harness.events(AgentEvent.AgentSettled.class), types.toString());
        assertEquals("agent_settled", types.get(types.size() - 1), types.toString());
        assertEquals("agent_end", types.get(types.lastIndexOf("agent_end")), types.toString());
        assertTrue(types.lastIndexOf("agent_end") < types.size() - 1, types.toString());
    }

    private static AgentEvent.AgentSettled settled(boolean aborted) {
        return new AgentEvent.AgentSettled(aborted);
    }

    private static void awaitRetrySleep(SessionHarness harness, long delayMs) {
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(delayMs)));
    }

    @Test
    void aPlainRunSettlesOnceAfterItsAgentEndAndBeforeThePromptIsOver() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            List<Boolean> settledBeforeIdle = new java.util.concurrent.CopyOnWriteArrayList<>();
            harness.session.subscribe(event -> {
                if (event instanceof AgentEvent.AgentSettled) {
                    settledBeforeIdle.add(harness.session.state().isStreaming());
                }
            });
            harness.enqueue(FauxStep.text("hello"));
            harness.promptToEnd("hi");
            assertSettledLast(harness, settled(false));
            assertEquals(List.of(false), settledBeforeIdle, "get_state already says idle when settled is seen");
            int before = harness.types().size() - 1;
            assertEquals(List.of("agent_end", "agent_settled"), harness.types().subList(before - 1, before + 1));
        }
    }

    @Test
    void aRetriedChainSettlesOnlyAfterTheFinalAgentEnd() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.error(OVERLOADED, 529), FauxStep.error(OVERLOADED, 529), FauxStep.text("ok"));
            CompletableFuture<Void> done = harness.session.prompt("hi");
            awaitRetrySleep(harness, 2000);
            assertEquals(List.of(), harness.events(AgentEvent.AgentSettled.class), "not between retries");
            harness.scheduler.advance(2000);
            awaitRetrySleep(harness, 4000);
            assertEquals(List.of(), harness.events(AgentEvent.AgentSettled.class), "not between retries");
            harness.scheduler.advance(4000);
            await().until(done::isDone);
            assertEquals(3, harness.events(AgentEvent.AgentEnd.class).size());
            assertSettledLast(harness, settled(false));
        }
    }

    @Test
    void aChainThatGivesUpSettlesOnceNotAborted() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.session.settings().setRetry(1, 1L, 60_000L);
            harness.enqueue(FauxStep.error(OVERLOADED, 529), FauxStep.error(OVERLOADED, 529));
            harness.promptToEnd("hi");
            assertEquals(1, harness.events(AgentEvent.AutoRetryEnd.class).size());
            assertSettledLast(harness, settled(false));
        }
    }

    @Test
    void aFallbackSwitchSettlesOnceAfterTheRungsReply() {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.session.fallback().setChain("faux/faux-1", List.of("faux/faux-2"));
            harness.session.settings().setRetry(0, 1L, 60_000L);
            harness.enqueue(FauxStep.error("503 overloaded", 503), FauxStep.text("served by the rung"));
            harness.promptToEnd("hi");
            assertEquals(List.of("faux/faux-1", "faux/faux-2"), harness.replyModels());
            assertSettledLast(harness, settled(false));
        }
    }

    @Test
    void anOverflowThatIsCompactedAndContinuedSettlesAfterTheContinuation() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.settings.set("compaction.keepRecentTokens", IntNode.valueOf(1));
            harness.enqueue(FauxStep.text("a1"), FauxStep.error(OVERFLOW, 400), FauxStep.text("summary"),
                    FauxStep.text("a2"));
            await().until(harness.session.prompt("q1")::isDone);
            int firstRun = harness.types().size();
            await().until(harness.session.prompt("q2")::isDone);
            List<String> second = harness.types().subList(firstRun, harness.types().size());
            assertTrue(second.contains("compaction_end") && second.indexOf("compaction_end") < second.lastIndexOf(
                    "agent_start"), second.toString());
            assertEquals(1, second.stream().filter("agent_settled"::equals).count(), second.toString());
            assertSettledLast(harness, settled(false), settled(false));
        }
    }

    @Test
    void aFollowUpQueuedDuringTheRunIsPartOfItAndTheRunSettlesOnceAfterIt() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("first").withDelayMs(1000), FauxStep.text("second"));
            CompletableFuture<Void> done = harness.session.prompt("one");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(1000L)));
            assertTrue(harness.session.accept("two", null, StreamingBehavior.FOLLOW_UP).queued());
            harness.scheduler.advance(1000);
            await().until(done::isDone);
            assertEquals("second", harness.session.lastAssistantText().orElse(null));
            assertSettledLast(harness, settled(false));
        }
    }

    @Test
    void anAbortWhileStreamingSettlesAborted() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("a long reply that streams slowly").withChunkDelayMs(50));
            CompletableFuture<Void> done = harness.session.prompt("go");
            harness.awaitEvent(e -> e instanceof AgentEvent.MessageUpdate);
            harness.session.abort().get();
            assertTrue(done.isDone());
            assertSettledLast(harness, settled(true));
        }
    }

    @Test
    void anAbortDuringABackoffSettlesAbortedAndANewRunStartsClean() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.error(OVERLOADED, 529));
            harness.session.prompt("hi");
            awaitRetrySleep(harness, 2000);
            harness.session.abort().get();
            assertSettledLast(harness, settled(true));

            harness.enqueue(FauxStep.text("next"));
            harness.promptToEnd("again");
            assertSettledLast(harness, settled(true), settled(false));
        }
    }

    @Test
    void abortRetryDuringABackoffEndsTheRunWithoutAnAbort() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.error(OVERLOADED, 529));
            CompletableFuture<Void> done = harness.session.prompt("hi");
            awaitRetrySleep(harness, 2000);
            harness.session.abortRetry();
            await().until(done::isDone);
            assertSettledLast(harness, settled(false));
        }
    }

    @Test
    void aCrashedRunStillSettles() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            AtomicInteger starts = new AtomicInteger();
            harness.session.subscribe(event -> {
                if (event instanceof AgentEvent.AgentStart && starts.incrementAndGet() == 2) {
                    throw new StackOverflowError();
                }
            });
            harness.enqueue(FauxStep.error("529 overloaded", 529));
            harness.promptToEnd("go");
            assertEquals(List.of(true, false), harness.events(AgentEvent.AgentEnd.class).stream()
                    .map(AgentEvent.AgentEnd::willRetry).toList());
            assertSettledLast(harness, settled(false));
        }
    }

    @Test
    void aPromptThatFailsItsPreflightNeverRanAndDoesNotSettle() {
        try (SessionHarness harness = SessionHarness.builder(dir)
                .provider(new ScriptedProvider(), ScriptedProvider.MODEL).build()) {
            CompletableFuture<Void> done = harness.session.prompt("hi");
            await().until(done::isDone);
            assertTrue(done.isCompletedExceptionally());
            assertEquals(List.of(), harness.events());
            assertFalse(harness.session.state().isStreaming());
        }
    }

    @Test
    void aManualCompactionOnAnIdleSessionDoesNotSettle() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.settings.set("compaction.keepRecentTokens", IntNode.valueOf(1));
            harness.enqueue(FauxStep.text("a1"), FauxStep.text("summary"));
            harness.promptToEnd("q1");
            harness.session.compact(null).get();
            assertEquals("compaction_end", harness.types().get(harness.types().size() - 1));
            assertEquals(List.of(settled(false)), harness.events(AgentEvent.AgentSettled.class));
        }
    }

    @Test
    void aListenerThatStartsTheNextRunOnSettledDoesNotEndItEarly() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            CompletableFuture<CompletableFuture<Void>> next = new CompletableFuture<>();
            harness.session.subscribe(event -> {
                if (event instanceof AgentEvent.AgentSettled && !next.isDone()) {
                    next.complete(harness.session.prompt("from the listener"));
                }
            });
            harness.enqueue(FauxStep.text("first"), FauxStep.text("second").withDelayMs(1000));
            await().until(harness.session.prompt("hi")::isDone);
            await().until(next::isDone);
            CompletableFuture<Void> second = next.join();
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(1000L)));
            assertFalse(second.isDone(), "the settling of the first run must not end the second");
            harness.scheduler.advance(1000);
            await().until(second::isDone);
            assertEquals(2, harness.events(AgentEvent.AgentSettled.class).size());
        }
    }
}
