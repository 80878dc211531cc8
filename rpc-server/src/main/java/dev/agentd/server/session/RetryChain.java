package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import java.util.function.Consumer;

/**
 * The state of the current retry chain (SPEC §5.3) and the events that mark its life:
 * {@code auto_retry_start} for each attempt and exactly one {@code auto_retry_end} when it ends.
 * {@code attempt} is 0 when no chain is open. Guarded by the session's lock.
 */
final class RetryChain {
    static final String CANCELLED = "Retry cancelled";

    private final Consumer<AgentEvent> emit;
    private int attempt;

    RetryChain(Consumer<AgentEvent> emit) {
        this.emit = emit;
    }

    int attempt() {
        return attempt;
    }

    boolean isOpen() {
        return attempt > 0;
    }

    /** Announces attempt {@code n} of the chain (opening it on the first). */
    void start(int n, int maxAttempts, long delayMs, String errorMessage) {
        attempt = n;
        emit.accept(new AgentEvent.AutoRetryStart(n, maxAttempts, delayMs, errorMessage));
    }

    /** The first successful reply after retries began: the chain ends in success. */
    void succeedIfOpen() {
        if (attempt > 0) {
            int done = attempt;
            attempt = 0;
            emit.accept(new AgentEvent.AutoRetryEnd(true, done, null));
        }
    }

    /** The chain ends in failure, reporting {@code reportedAttempt}. */
    void fail(int reportedAttempt, String finalError) {
        attempt = 0;
        emit.accept(new AgentEvent.AutoRetryEnd(false, reportedAttempt, finalError));
    }

    /** The user stopped the chain. */
    void cancel() {
        fail(attempt, CANCELLED);
    }

    /** Forgets the chain without an event (new session). */
    void reset() {
        attempt = 0;
    }
}
