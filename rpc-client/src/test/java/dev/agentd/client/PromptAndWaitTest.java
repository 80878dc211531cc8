package dev.agentd.client;

import static dev.agentd.client.FakeDaemon.AGENT_START;
import static dev.agentd.client.FakeDaemon.TURN_START;
import static dev.agentd.client.FakeDaemon.agentEnd;
import static dev.agentd.client.FakeDaemon.assistantEnd;
import static dev.agentd.client.FakeDaemon.retryEnd;
import static dev.agentd.client.FakeDaemon.retryStart;
import static dev.agentd.client.FakeDaemon.textDelta;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.StreamingBehavior;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retry-aware waiting (SPEC §5.3, §9). Sequences are fed in phases; between phases the client's
 * tracked state is checked after a listener has seen the last event (the tracker is updated
 * before listeners run, so that check is deterministic).
 */
class PromptAndWaitTest {
    private static final Duration LONG = Duration.ofSeconds(20);
    private static final String TURN_END = "{\"type\":\"turn_end\",\"toolResults\":[]}";

    private final FakeDaemon daemon = new FakeDaemon();
    private final List<AgentEvent> seen = new CopyOnWriteArrayList<>();
    private final ExecutorService background = Executors.newSingleThreadExecutor();
    /** The run tracker's clock in the grace tests: it moves only when the test says so. */
    private final AtomicLong nanos = new AtomicLong();
    private RunTracker tracker;
    private RpcClient client;

    private RpcClient start() {
        client = RpcClient.builder().streams(daemon.stdout(), daemon.stdin()).retryGrace(Duration.ofMillis(250))
                .start();
        client.addListener(seen::add);
        return client;
    }

    /** A client whose grace windows and run deadlines are on {@link #nanos}. */
    private RpcClient startOnFakeClock(Duration retryGrace) {
        tracker = new RunTracker(retryGrace.toNanos(), nanos::get);
        client = RpcClient.builder().streams(daemon.stdout(), daemon.stdin()).build(tracker).start();
        client.addListener(seen::add);
        return client;
    }

    private void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
        tracker.clockAdvanced();
    }

    /** The prompt is accepted, then {@code events} follow. */
    private void onPrompt(String... events) {
        daemon.on("prompt", (command, d) -> {
            d.respond(command, null);
            d.emit(events);
        });
    }

    private void awaitSeen(int count) {
        await().until(() -> seen.size() >= count);
        assertEquals(count, seen.size());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (client != null) {
            client.close();
        }
        daemon.close();
        background.shutdownNow();
    }

    @Test
    void plainRunReturnsAtAgentEnd() {
        onPrompt(AGENT_START, TURN_START, textDelta("Hel"), textDelta("lo"), assistantEnd("stop"), TURN_END,
                agentEnd(false));
        List<AgentEvent> events = start().promptAndWait("hi", LONG).events();

        assertEquals(7, events.size());
        assertInstanceOf(AgentEvent.AgentStart.class, events.get(0));
        assertInstanceOf(AgentEvent.AgentEnd.class, events.get(6));
        assertEquals(events, seen, "listeners have seen the last event before promptAndWait returns");
        assertTrue(client.isIdle());
    }

    @Test
    void successfulRetryReturnsOnlyAfterTheRetriedRunEnds() throws Exception {
        onPrompt(AGENT_START, TURN_START, assistantEnd("error"), TURN_END, agentEnd(true), retryStart(1));
        start();
        Future<List<AgentEvent>> result = background.submit(() -> client.promptAndWait("hi", LONG).events());

        awaitSeen(6);
        assertFalse(client.isIdle(), "agent_end{willRetry:true} + open chain");
        daemon.emit(AGENT_START, TURN_START, textDelta("ok"), assistantEnd("stop"), retryEnd(true, 1, null));
        awaitSeen(11);
        assertFalse(client.isIdle(), "the chain ended mid-run; the run goes on");
        assertFalse(result.isDone());
        daemon.emit(TURN_END, agentEnd(false));

        List<AgentEvent> events = result.get(20, TimeUnit.SECONDS);
        assertEquals(13, events.size());
        assertEquals(2, events.stream().filter(AgentEvent.AgentEnd.class::isInstance).count());
        assertEquals(false, ((AgentEvent.AgentEnd) events.get(12)).willRetry());
    }

    @Test
    void exhaustedRetriesReturnWithTheFailedRetryEnd() throws Exception {
        onPrompt(AGENT_START, assistantEnd("error"), agentEnd(true), retryStart(1),
                AGENT_START, assistantEnd("error"), agentEnd(false));
        start();
        Future<List<AgentEvent>> result = background.submit(() -> client.promptAndWait("hi", LONG).events());

        awaitSeen(7);
        assertFalse(client.isIdle(), "the chain is still open after the final agent_end");
        daemon.emit(retryEnd(false, 1, "529 overloaded"));

        List<AgentEvent> events = result.get(20, TimeUnit.SECONDS);
        assertEquals(8, events.size());
        AgentEvent.AutoRetryEnd end = assertInstanceOf(AgentEvent.AutoRetryEnd.class, events.get(7));
        assertFalse(end.success());
        assertEquals("529 overloaded", end.finalError());
    }

    @Test
    void retryCancelledDuringBackoffEndsThePrompt() throws Exception {
        onPrompt(AGENT_START, assistantEnd("error"), agentEnd(true), retryStart(1));
        daemon.on("abort_retry", (command, d) -> {
            d.respond(command, null);
            d.emit(retryEnd(false, 1, "Retry cancelled"));
        });
        start();
        Future<List<AgentEvent>> result = background.submit(() -> client.promptAndWait("hi", LONG).events());

        awaitSeen(4);
        assertFalse(result.isDone());
        client.abortRetry();

        List<AgentEvent> events = result.get(20, TimeUnit.SECONDS);
        AgentEvent.AutoRetryEnd end = assertInstanceOf(AgentEvent.AutoRetryEnd.class, events.get(events.size() - 1));
        assertEquals("Retry cancelled", end.finalError());
        assertTrue(client.isIdle());
    }

    @Test
    void aPromptFailingItsPreflightThrowsPromptFailed() {
        daemon.on("prompt", (command, d) -> d.refuse(command, "No API key found for anthropic"));
        start();

        PromptFailedException e = assertThrows(PromptFailedException.class, () -> client.promptAndWait("hi", LONG));
        assertEquals("No API key found for anthropic", e.serverError());
        assertEquals("prompt", e.command());
        assertTrue(e.events().isEmpty());
        assertTrue(client.isIdle(), "a failed prompt starts no run");
    }

    @Test
    void refusedPromptThrowsAndLeavesTheClientIdle() {
        daemon.on("prompt", (command, d) -> d.refuse(command, "Agent is already processing."));
        start();

        RpcException e = assertThrows(RpcException.class, () -> client.promptAndWait("hi", LONG));
        assertInstanceOf(PromptFailedException.class, e, "one answer per prompt: a refusal is its failure");
        assertEquals("Agent is already processing.", e.serverError());
        assertTrue(client.isIdle());
    }

    @Test
    void promptTimeoutCarriesTheState() {
        onPrompt(AGENT_START);
        start();

        // Long enough for the prompt's response and agent_start to arrive on a loaded machine.
        RpcTimeoutException e = assertThrows(RpcTimeoutException.class,
                () -> client.promptAndWait("hi", Duration.ofMillis(1_500)));
        assertTrue(e.getMessage().contains("runActive=true"), e.getMessage());
    }

    @Test
    void waitForIdleReturnsAtOnceOnAFreshClient() {
        start().waitForIdle(Duration.ZERO);
        assertTrue(client.isIdle());
    }

    @Test
    void waitForIdleWaitsAcrossARetry() throws Exception {
        onPrompt(AGENT_START, assistantEnd("error"), agentEnd(true), retryStart(1));
        start().prompt("hi");
        Future<?> idle = background.submit(() -> client.waitForIdle(LONG));

        awaitSeen(4);
        assertFalse(client.isIdle());
        daemon.emit(AGENT_START, assistantEnd("stop"), retryEnd(true, 1, null));
        awaitSeen(7);
        assertFalse(client.isIdle());
        assertFalse(idle.isDone());
        daemon.emit(agentEnd(false));

        idle.get(20, TimeUnit.SECONDS);
        assertTrue(client.isIdle());
    }

    @Test
    void waitForIdleCoversAnAcceptedPromptBeforeItsRun() {
        daemon.on("prompt", (command, d) -> d.respond(command, null)); // accepted, run not started yet
        start().prompt("hi");

        assertFalse(client.isIdle());
        assertThrows(RpcTimeoutException.class, () -> client.waitForIdle(Duration.ofMillis(200)));
    }

    @Test
    void missingWillRetryWaitsTheGraceForARetry() throws Exception {
        // An older pi server: agent_end has no willRetry; the retry is announced right after it.
        onPrompt(AGENT_START, assistantEnd("error"), agentEnd(null), retryStart(1),
                AGENT_START, assistantEnd("stop"), retryEnd(true, 1, null), agentEnd(null));
        // The grace runs on the fake clock, so it cannot run out while the next line is read.
        startOnFakeClock(Duration.ofSeconds(3));
        Future<PromptResult> result = background.submit(() -> client.promptAndWait("hi", LONG));
        awaitSeen(8);
        assertFalse(result.isDone(), "the last agent_end has no willRetry either: its grace is open");
        advance(Duration.ofSeconds(3));
        List<AgentEvent> events = result.get(LONG.toSeconds(), TimeUnit.SECONDS).events();

        assertEquals(8, events.size());
        assertInstanceOf(AgentEvent.AgentEnd.class, events.get(7));
    }

    @Test
    void missingWillRetryWithoutRetryEndsAfterTheGrace() throws Exception {
        onPrompt(AGENT_START, assistantEnd("stop"), agentEnd(null));
        startOnFakeClock(Duration.ofMillis(300));
        Future<PromptResult> result = background.submit(() -> client.promptAndWait("hi", LONG));
        awaitSeen(3);
        advance(Duration.ofMillis(299));
        assertFalse(result.isDone(), "waits the grace: 1 ms of it is left");
        advance(Duration.ofMillis(1));
        List<AgentEvent> events = result.get(LONG.toSeconds(), TimeUnit.SECONDS).events();

        assertEquals(3, events.size());
    }

    @Test
    void failedOverflowCompactionEndsThePrompt() {
        onPrompt(AGENT_START, assistantEnd("error"), agentEnd(true),
                "{\"type\":\"compaction_start\",\"reason\":\"overflow\"}",
                "{\"type\":\"compaction_end\",\"reason\":\"overflow\",\"aborted\":false,\"willRetry\":false,"
                        + "\"errorMessage\":\"Context overflow recovery failed: boom\"}");
        List<AgentEvent> events = start().promptAndWait("hi", LONG).events();

        assertInstanceOf(AgentEvent.CompactionEnd.class, events.get(4));
    }

    @Test
    void compactionContinueWaitsForTheContinuedRun() throws Exception {
        onPrompt(AGENT_START, assistantEnd("error"), agentEnd(true),
                "{\"type\":\"compaction_start\",\"reason\":\"overflow\"}",
                "{\"type\":\"compaction_end\",\"reason\":\"overflow\",\"aborted\":false,\"willRetry\":true}");
        start();
        Future<List<AgentEvent>> result = background.submit(() -> client.promptAndWait("hi", LONG).events());

        awaitSeen(5);
        assertFalse(client.isIdle());
        daemon.emit(AGENT_START, assistantEnd("stop"), agentEnd(false));

        assertEquals(8, result.get(20, TimeUnit.SECONDS).size());
    }

    @Test
    void queuedPromptWhileBusyJoinsTheCurrentRun() throws Exception {
        daemon.on("prompt", (command, d) -> {
            d.respond(command, null);
            if (!command.has("streamingBehavior")) {
                d.emit(AGENT_START);
            }
        });
        start().prompt("first");
        awaitSeen(1);

        Future<List<AgentEvent>> result = background.submit(
                () -> client.promptAndWait("more", null, StreamingBehavior.FOLLOW_UP, LONG).events());
        daemon.take("prompt");
        assertEquals("followUp", daemon.take("prompt").get("streamingBehavior").asText());
        daemon.emit(assistantEnd("stop"), agentEnd(false));

        List<AgentEvent> events = result.get(20, TimeUnit.SECONDS);
        assertNotEquals(0, events.size());
        assertInstanceOf(AgentEvent.AgentEnd.class, events.get(events.size() - 1));
    }
}
