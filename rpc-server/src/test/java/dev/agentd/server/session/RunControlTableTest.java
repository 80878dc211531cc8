package dev.agentd.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.session.RunControl.Phase;
import dev.agentd.server.testing.FakeScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * RunControl's phase machine (IDLE → RUNNING ⇄ WAITING_RETRY → IDLE) and its retry chain
 * (open / attempt / close / cancel) step by step on fake time. Each row: what happens, then the
 * phase, whether a chain is open, its attempt, and the events the step emitted.
 */
class RunControlTableTest {
    private final FakeScheduler scheduler = new FakeScheduler();
    private final List<AgentEvent> events = new ArrayList<>();
    private final RunControl control = new RunControl(events::add, scheduler, aborted -> { });
    private final AtomicInteger wakes = new AtomicInteger();
    private CancellationToken token;
    private CompletableFuture<Void> end;

    private record Row(String step, Consumer<RunControlTableTest> action, Phase phase, boolean open, int attempt,
            List<AgentEvent> emitted) {}

    private static Row row(String step, Consumer<RunControlTableTest> action, Phase phase, boolean open, int attempt,
            AgentEvent... emitted) {
        return new Row(step, action, phase, open, attempt, List.of(emitted));
    }

    private void start() {
        RunControl.Start started = control.startOrElse(() -> { throw new AssertionError("busy"); });
        token = started.token();
        end = started.end();
    }

    private void retry(int attempt, long delayMs) {
        control.scheduleRetry(attempt, 3, delayMs, "529 overloaded", token, () -> { }, wakes::incrementAndGet);
    }

    private void play(List<Row> table) {
        for (Row row : table) {
            int before = events.size();
            row.action().accept(this);
            String at = "after \"" + row.step() + "\"";
            assertEquals(row.phase(), control.phase(), at);
            assertEquals(row.open(), control.chainOpen(), at);
            assertEquals(row.attempt(), control.retryAttempt(), at);
            assertEquals(row.open(), control.chainState().open(), at);
            assertEquals(row.emitted(), events.subList(before, events.size()), at);
        }
    }

    private static AgentEvent.AutoRetryStart started(int attempt, long delayMs) {
        return new AgentEvent.AutoRetryStart(attempt, 3, delayMs, "529 overloaded");
    }

    @Test
    void aChainThatSucceeds() {
        play(List.of(
                row("new", t -> { }, Phase.IDLE, false, 0),
                row("prompt", RunControlTableTest::start, Phase.RUNNING, false, 0),
                row("retry 1 after 2 s", t -> t.retry(1, 2000), Phase.WAITING_RETRY, true, 1, started(1, 2000)),
                row("1999 ms pass", t -> t.scheduler.advance(1999), Phase.WAITING_RETRY, true, 1),
                row("the backoff ends", t -> t.scheduler.advance(1), Phase.RUNNING, true, 1),
                row("retry 2 after 4 s", t -> t.retry(2, 4000), Phase.WAITING_RETRY, true, 2, started(2, 4000)),
                row("the backoff ends", t -> t.scheduler.advance(4000), Phase.RUNNING, true, 2),
                row("a reply succeeds", t -> t.control.replySucceeded(), Phase.RUNNING, false, 0,
                        new AgentEvent.AutoRetryEnd(true, 2, null)),
                row("another success: no second end", t -> t.control.replySucceeded(), Phase.RUNNING, false, 0),
                row("the run finishes", t -> t.control.finish(), Phase.IDLE, false, 0)));
        assertEquals(2, wakes.get());
        assertTrue(end.isDone());
    }

    @Test
    void aChainThatGivesUpOrIsCancelled() {
        play(List.of(
                row("prompt", RunControlTableTest::start, Phase.RUNNING, false, 0),
                row("a refused retry", t -> t.control.giveUp(0, "too long"), Phase.RUNNING, false, 0,
                        new AgentEvent.AutoRetryEnd(false, 0, "too long")),
                row("retry 1", t -> t.retry(1, 2000), Phase.WAITING_RETRY, true, 1, started(1, 2000)),
                row("abort_retry while waiting", t -> t.control.abortRetry(), Phase.IDLE, false, 0,
                        new AgentEvent.AutoRetryEnd(false, 1, RetryChain.CANCELLED)),
                row("the cancelled timer never fires", t -> t.scheduler.advance(10_000), Phase.IDLE, false, 0)));
        assertEquals(0, wakes.get());
        assertTrue(end.isDone());
    }

    @Test
    void abortRetryWhileTheRetriedAttemptStreamsSuppressesTheNextRetry() {
        play(List.of(
                row("prompt", RunControlTableTest::start, Phase.RUNNING, false, 0),
                row("retry 1", t -> t.retry(1, 0), Phase.WAITING_RETRY, true, 1, started(1, 0)),
                row("wake", t -> t.scheduler.advance(0), Phase.RUNNING, true, 1),
                row("abort_retry while streaming", t -> t.control.abortRetry(), Phase.RUNNING, false, 0,
                        new AgentEvent.AutoRetryEnd(false, 1, RetryChain.CANCELLED))));
        assertTrue(control.chainState().retrySuppressed());
        play(List.of(row("the run finishes", t -> t.control.finish(), Phase.IDLE, false, 0)));
        assertFalse(control.chainState().retrySuppressed(), "a new run may retry again");
    }

    @Test
    void anAbortThatRacedTheDecisionEndsTheChainAtOnce() {
        play(List.of(
                row("prompt", RunControlTableTest::start, Phase.RUNNING, false, 0),
                row("abort lands", t -> t.token.cancel(), Phase.RUNNING, false, 0),
                row("retry 1 is announced and cancelled", t -> t.retry(1, 2000), Phase.IDLE, false, 0,
                        started(1, 2000), new AgentEvent.AutoRetryEnd(false, 1, RetryChain.CANCELLED))));
        assertEquals(List.of(), scheduler.pendingDelays());
    }

    @Test
    void resetForgetsTheChainWithoutAnEvent() {
        play(List.of(
                row("prompt", RunControlTableTest::start, Phase.RUNNING, false, 0),
                row("retry 1", t -> t.retry(1, 0), Phase.WAITING_RETRY, true, 1, started(1, 0)),
                row("wake", t -> t.scheduler.advance(0), Phase.RUNNING, true, 1),
                row("reset", t -> t.control.resetChain(), Phase.RUNNING, false, 0)));
    }

    @Test
    void aBusySessionRunsTheBusyBranchAndSharesTheRunsEnd() {
        start();
        List<String> queued = new ArrayList<>();
        RunControl.Start second = control.startOrElse(() -> queued.add("queued"));
        assertNull(second.token());
        assertEquals(List.of("queued"), queued);
        assertEquals(Phase.RUNNING, control.phase());
        control.finish();
        assertTrue(second.end().isDone());
    }

    @Test
    void finishReturnsToIdleEvenWhenItsEventsThrow() {
        start();
        assertThrows(StackOverflowError.class, () -> control.finish(() -> { throw new StackOverflowError(); }));
        assertEquals(Phase.IDLE, control.phase());
        assertTrue(end.isDone());
    }

    @Test
    void aLateCleanUpNeverEndsALaterRun() {
        start();
        CancellationToken first = token;
        control.finish();
        start();
        assertFalse(control.finishRun(first, () -> { throw new AssertionError("must not run"); }));
        assertEquals(Phase.RUNNING, control.phase());
        assertTrue(control.finishRun(token, () -> { }));
        assertEquals(Phase.IDLE, control.phase());
    }

    @Test
    void abortAnswersWithinItsBoundEvenWhenTheRunDoesNotStop() {
        start();
        CompletableFuture<Void> aborted = control.abort();
        assertTrue(token.isCancelled());
        assertFalse(aborted.isDone(), "waits for the run to stop");
        scheduler.advance(RunControl.ABORT_WAIT_MS - 1);
        assertFalse(aborted.isDone());
        scheduler.advance(1);
        assertTrue(aborted.isDone(), "answered after the bound");
        assertEquals(Phase.RUNNING, control.phase(), "the run itself is still ending");
        control.finish();
        assertEquals(Phase.IDLE, control.phase());
    }

    @Test
    void abortOfARunThatStopsCompletesWithTheRunAndLeavesNoTimer() {
        start();
        CompletableFuture<Void> promptDone = new CompletableFuture<>();
        end.whenComplete((ignored, error) -> promptDone.complete(null));
        CompletableFuture<Void> aborted = control.abort();
        boolean[] promptOverFirst = {false};
        aborted.whenComplete((ignored, error) -> promptOverFirst[0] = promptDone.isDone());
        assertEquals(List.of(RunControl.ABORT_WAIT_MS), scheduler.pendingDelays());
        control.finish();
        assertTrue(aborted.isDone());
        assertTrue(promptOverFirst[0], "abort answers only after the prompt's own end");
        assertEquals(List.of(), scheduler.pendingDelays());
        assertTrue(control.abort().isDone(), "idle: answered at once");
    }
}
