package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.ResumedFrom;
import dev.agentd.server.recovery.RateLimitWait;
import java.util.function.Consumer;

/**
 * The state of the current retry chain (SPEC §5.3) and the events that mark its life:
 * {@code auto_retry_start} for each attempt and exactly one {@code auto_retry_end} when it ends.
 * "Open" is kept apart from the attempt number because one chain may span several models (rungs),
 * each counting its own attempts from 1, and still end with a single {@code auto_retry_end}.
 * Guarded by the session's lock.
 */
final class RetryChain {
    static final String CANCELLED = "Retry cancelled";

    private final Consumer<AgentEvent> emit;
    private boolean open;
    /** The attempt of the current rung; 0 when closed. */
    private int attempt;
    /** Which model of the chain is being retried: 0 is the session's own model (no fallback yet). */
    private int rung;
    /** The in-turn 429 wait state of the current rung (FALLBACK §4): it belongs to that model's hint. */
    private RateLimitWait rateLimitWait = RateLimitWait.NONE;

    RetryChain(Consumer<AgentEvent> emit) {
        this.emit = emit;
    }

    boolean isOpen() {
        return open;
    }

    int attempt() {
        return attempt;
    }

    int rung() {
        return rung;
    }

    RateLimitWait rateLimitWait() {
        return rateLimitWait;
    }

    /** Announces attempt {@code n} of the current rung (opening the chain on the first). */
    void start(int n, int maxAttempts, long delayMs, String errorMessage) {
        start(n, maxAttempts, delayMs, errorMessage, rateLimitWait);
    }

    /** Like {@link #start(int, int, long, String)}, keeping {@code wait} as the 429 wait state from now on. */
    void start(int n, int maxAttempts, long delayMs, String errorMessage, RateLimitWait wait) {
        start(n, maxAttempts, delayMs, errorMessage, wait, null);
    }

    /** Like {@link #start(int, int, long, String, RateLimitWait)}, saying what of a cut reply is kept. */
    void start(int n, int maxAttempts, long delayMs, String errorMessage, RateLimitWait wait,
            ResumedFrom resumedFrom) {
        rateLimitWait = wait == null ? RateLimitWait.NONE : wait;
        open = true;
        attempt = n;
        emit.accept(new AgentEvent.AutoRetryStart(n, maxAttempts, delayMs, errorMessage, resumedFrom));
    }

    /** The first successful reply after retries began: the chain ends in success. */
    void succeedIfOpen() {
        succeedIfOpen(() -> {});
    }

    /** Like {@link #succeedIfOpen()}, running {@code beforeEnd} (e.g. {@code retry_fallback_succeeded}) first. */
    void succeedIfOpen(Runnable beforeEnd) {
        if (open) {
            int done = attempt;
            close();
            beforeEnd.run();
            emit.accept(new AgentEvent.AutoRetryEnd(true, done, null));
        }
    }

    /** The chain moved to the next model; its attempts count from 1 again (see {@link #start}). */
    void nextRung() {
        rung++;
        rateLimitWait = RateLimitWait.NONE;
    }

    /** The chain ends in failure (or a retry is refused before one opened), reporting {@code reportedAttempt}. */
    void fail(int reportedAttempt, String finalError) {
        close();
        emit.accept(new AgentEvent.AutoRetryEnd(false, reportedAttempt, finalError));
    }

    /** The user stopped the chain. */
    void cancel() {
        fail(attempt, CANCELLED);
    }

    /** Forgets the chain without an event (new session). */
    void reset() {
        close();
    }

    private void close() {
        open = false;
        attempt = 0;
        rung = 0;
        rateLimitWait = RateLimitWait.NONE;
    }
}
