package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.ResumedFrom;
import dev.agentd.server.recovery.RateLimitWait;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session's phase — idle, running, or waiting for a retry — and its retry chain, under one
 * lock (SPEC §5.3). A <em>logical run</em> goes from a prompt's acceptance back to idle and spans
 * every retry and continuation of that prompt; its token cancels whatever part of it is running.
 */
final class RunControl {
    private static final Logger LOG = LoggerFactory.getLogger(RunControl.class);
    /**
     * How long {@link #abort()} waits for the run to reach idle before answering anyway: a tool
     * that ignores cancellation must not leave the client without a reply. The run still ends
     * (and {@code get_state} says so) when that tool returns.
     */
    static final long ABORT_WAIT_MS = 10_000;

    enum Phase { IDLE, RUNNING, WAITING_RETRY }

    /** A started logical run: its cancellation token and the future that completes when it ends. */
    record Start(CancellationToken token, CompletableFuture<Void> end) {}

    /** The retry chain as the recovery decision sees it, read under one lock. */
    record ChainState(boolean open, int attempt, boolean retrySuppressed, RateLimitWait rateLimitWait) {}

    private final Object lock = new Object();
    private final RetryChain chain;
    private final Scheduler scheduler;
    private Phase phase = Phase.IDLE;
    private CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);
    private CancellationToken token;
    private Scheduler.Cancellable pendingRetry;
    /** Run when {@link #pendingRetry} is cancelled before it wakes, or null. */
    private Runnable retryCancelled;
    private boolean retrySuppressed;
    /** Aborts waiting for idle; completed after {@code idle}, whose dependents include the prompt's end. */
    private final List<CompletableFuture<Void>> abortWaiters = new ArrayList<>();
    /** Told once per logical run that it is over, with whether an abort ended it (pi's agent_settled). */
    private final Consumer<Boolean> settled;
    /** {@link #abort()} was asked during the current logical run. */
    private boolean abortRequested;

    RunControl(Consumer<AgentEvent> emit, Scheduler scheduler, Consumer<Boolean> settled) {
        this.chain = new RetryChain(emit);
        this.scheduler = scheduler;
        this.settled = settled;
    }

    /**
     * Starts a logical run when idle. When busy, runs {@code whenBusy} under the same lock (it
     * queues the message or throws) and returns a start without a token whose future completes
     * with the current run.
     */
    Start startOrElse(Runnable whenBusy) {
        synchronized (lock) {
            if (phase != Phase.IDLE) {
                whenBusy.run();
                return new Start(null, idle);
            }
            phase = Phase.RUNNING;
            idle = new CompletableFuture<>();
            token = new CancellationToken();
            retrySuppressed = false;
            abortRequested = false;
            return new Start(token, idle);
        }
    }

    /** The wall clock (epoch ms) of the scheduler the waits run on. */
    long wallNowMs() {
        return scheduler.now();
    }

    Phase phase() {
        synchronized (lock) {
            return phase;
        }
    }

    boolean isIdle() {
        synchronized (lock) {
            return phase == Phase.IDLE;
        }
    }

    boolean isStreaming() {
        synchronized (lock) {
            return phase == Phase.RUNNING;
        }
    }

    int retryAttempt() {
        synchronized (lock) {
            return chain.attempt();
        }
    }

    boolean retrySuppressed() {
        synchronized (lock) {
            return retrySuppressed;
        }
    }

    boolean chainOpen() {
        synchronized (lock) {
            return chain.isOpen();
        }
    }

    ChainState chainState() {
        synchronized (lock) {
            return new ChainState(chain.isOpen(), chain.attempt(), retrySuppressed, chain.rateLimitWait());
        }
    }

    /** The first successful reply after retries began ends the chain in success. */
    void replySucceeded() {
        replySucceeded(() -> {});
    }

    /** {@link #replySucceeded()}, running {@code beforeEnd} just before an open chain's success end. */
    void replySucceeded(Runnable beforeEnd) {
        synchronized (lock) {
            chain.succeedIfOpen(beforeEnd);
        }
    }

    /** The chain continues on another model (a fallback switch). */
    void nextRung() {
        synchronized (lock) {
            chain.nextRung();
        }
    }

    /** Ends the open chain (or reports a refused one) with {@code auto_retry_end{success:false}}. */
    void giveUp(int reportedAttempt, String finalError) {
        synchronized (lock) {
            chain.fail(reportedAttempt, finalError);
        }
    }

    /**
     * Runs {@code lastEvents} and returns to idle atomically: a prompt racing them is never refused.
     * The session returns to idle even when the events throw.
     */
    void finish(Runnable lastEvents) {
        synchronized (lock) {
            try {
                lastEvents.run();
            } finally {
                goIdle();
            }
        }
    }

    /**
     * Like {@link #finish(Runnable)}, but only while {@code runToken}'s logical run is still the
     * current one: a late clean-up never ends a run that started after it.
     *
     * @return false (nothing done) when that run had already ended
     */
    boolean finishRun(CancellationToken runToken, Runnable lastEvents) {
        synchronized (lock) {
            if (phase == Phase.IDLE || token != runToken) {
                return false;
            }
            finish(lastEvents);
            return true;
        }
    }

    void finish() {
        finish(() -> {});
    }

    /**
     * Like {@link #finish(Runnable)} for a run that never started (its preflight failed): the
     * session returns to idle without settling, as pi answers such a prompt with an error only.
     */
    void finishUnstarted(Runnable lastEvents) {
        synchronized (lock) {
            try {
                lastEvents.run();
            } finally {
                goIdle(false);
            }
        }
    }

    /**
     * Runs {@code beforeSleep} (e.g. dropping the failed reply), announces retry attempt
     * {@code attempt}, sleeps {@code delayMs} on the scheduler, then runs {@code onWake}. The sleep
     * starts right after the announcement, so it ends {@code delayMs} after the client saw
     * {@code auto_retry_start} (SPEC §10) however long the preparation took. An abort that raced
     * the decision ends the chain at once instead.
     */
    void scheduleRetry(int attempt, int maxAttempts, long delayMs, String errorMessage, CancellationToken runToken,
            Runnable beforeSleep, Runnable onWake) {
        scheduleRetry(attempt, maxAttempts, delayMs, errorMessage, RateLimitWait.NONE, runToken, beforeSleep, onWake);
    }

    /** {@link #scheduleRetry(int, int, long, String, CancellationToken, Runnable, Runnable)} keeping the chain's 429 wait state. */
    void scheduleRetry(int attempt, int maxAttempts, long delayMs, String errorMessage, RateLimitWait wait,
            CancellationToken runToken, Runnable beforeSleep, Runnable onWake) {
        scheduleRetry(attempt, maxAttempts, delayMs, errorMessage, wait, runToken, beforeSleep, onWake, null);
    }

    /**
     * As above; {@code onCancelled} (may be null) runs under the lock when this wait is cancelled
     * before it wakes — a resume at reset records there that it will not happen (FALLBACK §11).
     */
    void scheduleRetry(int attempt, int maxAttempts, long delayMs, String errorMessage, RateLimitWait wait,
            CancellationToken runToken, Runnable beforeSleep, Runnable onWake, Runnable onCancelled) {
        scheduleRetryKeeping(attempt, maxAttempts, delayMs, errorMessage, wait, runToken, () -> {
            beforeSleep.run();
            return null;
        }, onWake, onCancelled);
    }

    /** Like the above; {@code beforeSleep} returns what of a cut reply it kept, for {@code auto_retry_start}. */
    void scheduleRetryKeeping(int attempt, int maxAttempts, long delayMs, String errorMessage, RateLimitWait wait,
            CancellationToken runToken, Supplier<ResumedFrom> beforeSleep, Runnable onWake) {
        scheduleRetryKeeping(attempt, maxAttempts, delayMs, errorMessage, wait, runToken, beforeSleep, onWake, null);
    }

    /** The one place a retry wait is armed: kept content, the announcement, the timer, its cancel hook. */
    void scheduleRetryKeeping(int attempt, int maxAttempts, long delayMs, String errorMessage, RateLimitWait wait,
            CancellationToken runToken, Supplier<ResumedFrom> beforeSleep, Runnable onWake, Runnable onCancelled) {
        synchronized (lock) {
            ResumedFrom resumedFrom = beforeSleep.get();
            chain.start(attempt, maxAttempts, delayMs, errorMessage, wait, resumedFrom);
            if (runToken.isCancelled()) {
                chain.cancel();
                if (onCancelled != null) {
                    onCancelled.run();
                }
                goIdle();
                return;
            }
            retryCancelled = onCancelled;
            phase = Phase.WAITING_RETRY;
            // The timer may fire before schedule() returns (a short delay on a busy machine): it
            // reads its own handle only under the lock, which is released once the handle is set.
            Scheduler.Cancellable[] handle = new Scheduler.Cancellable[1];
            handle[0] = scheduler.schedule(delayMs, () -> wake(handle, onWake));
            pendingRetry = handle[0];
        }
    }

    private void wake(Scheduler.Cancellable[] handle, Runnable onWake) {
        synchronized (lock) {
            if (pendingRetry == null || pendingRetry != handle[0]) {
                return;
            }
            pendingRetry = null;
            retryCancelled = null;
            phase = Phase.RUNNING;
        }
        onWake.run();
    }

    /**
     * Ends the retry chain: a pending backoff is cancelled at once ({@code "Retry cancelled"}) and the
     * logical run ends; if the retried attempt is already streaming, the chain ends now and that
     * attempt's outcome is final (it will not be retried).
     */
    void abortRetry() {
        synchronized (lock) {
            if (phase == Phase.WAITING_RETRY && pendingRetry != null) {
                pendingRetry.cancel();
                pendingRetry = null;
                chain.cancel();
                Runnable cancelled = retryCancelled;
                retryCancelled = null;
                if (cancelled != null) {
                    cancelled.run();
                }
                goIdle();
            } else if (chain.isOpen()) {
                chain.cancel();
                retrySuppressed = true;
            }
        }
    }

    /**
     * Cancels a pending retry, then the running part; completes once idle (after the run's own end
     * future, so the prompt is over when abort answers), or after {@link #ABORT_WAIT_MS} on the
     * scheduler if the run does not stop.
     */
    CompletableFuture<Void> abort() {
        synchronized (lock) {
            abortRequested |= phase != Phase.IDLE; // before abortRetry, which may end the run at once
        }
        abortRetry();
        CancellationToken running;
        CompletableFuture<Void> answered = new CompletableFuture<>();
        synchronized (lock) {
            if (phase == Phase.IDLE) {
                return CompletableFuture.completedFuture(null);
            }
            running = token;
            abortWaiters.add(answered);
        }
        Scheduler.Cancellable timer = scheduler.schedule(ABORT_WAIT_MS, () -> {
            if (answered.complete(null)) {
                LOG.warn("the run did not stop within {} ms of abort; answering anyway", ABORT_WAIT_MS);
            }
        });
        answered.whenComplete((ignored, error) -> timer.cancel());
        if (running != null) {
            running.cancel();
        }
        return answered;
    }

    /** Forgets the chain without an event (a new or switched session). */
    void resetChain() {
        synchronized (lock) {
            chain.reset();
        }
    }

    private void goIdle() {
        goIdle(true);
    }

    /**
     * Every return to idle passes here, so a run settles exactly once: after its last events (the
     * callers run them first, under this lock) and before the prompt's end and abort's answer.
     */
    private void goIdle(boolean settle) {
        boolean aborted = abortRequested;
        phase = Phase.IDLE;
        token = null;
        pendingRetry = null;
        retryCancelled = null;
        retrySuppressed = false;
        abortRequested = false;
        // Taken first: a listener of the settled event may start the next run (on this thread).
        CompletableFuture<Void> ended = idle;
        List<CompletableFuture<Void>> waiters = List.copyOf(abortWaiters);
        abortWaiters.clear();
        try {
            if (settle) {
                settled.accept(aborted);
            }
        } finally {
            ended.complete(null);
            waiters.forEach(waiter -> waiter.complete(null));
        }
    }
}
