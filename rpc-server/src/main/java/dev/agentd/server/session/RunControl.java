package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The session's phase — idle, running, or waiting for a retry — and its retry chain, under one
 * lock (SPEC §5.3). A <em>logical run</em> goes from a prompt's acceptance back to idle and spans
 * every retry and continuation of that prompt; its token cancels whatever part of it is running.
 */
final class RunControl {
    private enum Phase { IDLE, RUNNING, WAITING_RETRY }

    /** A started logical run: its cancellation token and the future that completes when it ends. */
    record Start(CancellationToken token, CompletableFuture<Void> end) {}

    private final Object lock = new Object();
    private final RetryChain chain;
    private final Scheduler scheduler;
    private Phase phase = Phase.IDLE;
    private CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);
    private CancellationToken token;
    private Scheduler.Cancellable pendingRetry;
    private boolean retrySuppressed;

    RunControl(Consumer<AgentEvent> emit, Scheduler scheduler) {
        this.chain = new RetryChain(emit);
        this.scheduler = scheduler;
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
            return new Start(token, idle);
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

    /** The first successful reply after retries began ends the chain in success. */
    void replySucceeded() {
        synchronized (lock) {
            chain.succeedIfOpen();
        }
    }

    /** Ends the open chain (or reports a refused one) with {@code auto_retry_end{success:false}}. */
    void giveUp(int reportedAttempt, String finalError) {
        synchronized (lock) {
            chain.fail(reportedAttempt, finalError);
        }
    }

    /** Runs {@code lastEvents} and returns to idle atomically: a prompt racing them is never refused. */
    void finish(Runnable lastEvents) {
        synchronized (lock) {
            lastEvents.run();
            goIdle();
        }
    }

    void finish() {
        finish(() -> {});
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
        synchronized (lock) {
            beforeSleep.run();
            chain.start(attempt, maxAttempts, delayMs, errorMessage);
            if (runToken.isCancelled()) {
                chain.cancel();
                goIdle();
                return;
            }
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
                goIdle();
            } else if (chain.isOpen()) {
                chain.cancel();
                retrySuppressed = true;
            }
        }
    }

    /** Cancels a pending retry, then the running part; completes once idle. */
    CompletableFuture<Void> abort() {
        abortRetry();
        CancellationToken running;
        CompletableFuture<Void> end;
        synchronized (lock) {
            running = token;
            end = idle;
        }
        if (running != null) {
            running.cancel();
        }
        return end;
    }

    /** Forgets the chain without an event (a new or switched session). */
    void resetChain() {
        synchronized (lock) {
            chain.reset();
        }
    }

    private void goIdle() {
        phase = Phase.IDLE;
        token = null;
        pendingRetry = null;
        retrySuppressed = false;
        idle.complete(null);
    }
}
