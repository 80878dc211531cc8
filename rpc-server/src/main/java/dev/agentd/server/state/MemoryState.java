package dev.agentd.server.state;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Shared state for this process only: every session of the process sees it, other processes do
 * not. The default when no file can be used, and what tests and embedders get. Thread-safe: each
 * operation holds the one lock.
 */
public final class MemoryState implements SharedState.SelfContained {
    private final StateBook book = new StateBook();
    private final LongSupplier clock;
    private final StoreStatus status;

    /** @param clock epoch milliseconds */
    public MemoryState(LongSupplier clock) {
        this(clock, new StoreStatus("memory", false, Optional.empty()));
    }

    MemoryState(LongSupplier clock, StoreStatus status) {
        this.clock = clock;
        this.status = status;
    }

    /** On the machine's wall clock (the one store clock a caller does not pass in). */
    public static MemoryState onSystemClock() {
        return new MemoryState(System::currentTimeMillis);
    }

    @Override
    public StoreStatus status() {
        return status;
    }


    @Override
    public synchronized Admission admit(String selector, String owner, CircuitTimings timings) {
        return book.admit(selector, owner, clock.getAsLong(), timings);
    }

    @Override
    public synchronized long open(String selector, OptionalLong retryAfterMs, CircuitTimings timings) {
        return book.open(selector, retryAfterMs, clock.getAsLong(), timings);
    }

    @Override
    public synchronized void close(String selector) {
        book.close(selector);
    }

    @Override
    public synchronized boolean release(String selector, ProbeToken token) {
        return book.release(selector, token);
    }

    @Override
    public synchronized List<CircuitView> list(CircuitTimings timings) {
        return book.list(clock.getAsLong(), timings);
    }

    @Override
    public synchronized void block(CredentialId id, long durationMs) {
        book.block(CredentialIds.key(id), durationMs, clock.getAsLong());
    }

    @Override
    public synchronized long blockedForMs(CredentialId id) {
        return book.blockedForMs(CredentialIds.key(id), clock.getAsLong());
    }
}
