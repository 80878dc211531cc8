package dev.agentd.server.runtime;

/**
 * Time and delayed execution, injected everywhere a rule depends on time (retry backoff, stream
 * pacing, timeouts) so tests can drive it on fake time. {@link SystemScheduler} is the real one.
 *
 * <p>Two clocks: {@link #now()} is the wall clock, for timestamps that leave the process (messages
 * on the wire, session files, shared files another process reads); {@link #monotonicMs()} never
 * jumps when the system clock is set, so every duration, deadline and interval inside the process
 * is measured on it. Fakes advance both together.
 *
 * <p>Scheduled tasks must not block (see the package documentation).
 */
public interface Scheduler {

    /** Wall-clock time in epoch milliseconds (message timestamps, credential blocks). */
    long now();

    /**
     * Milliseconds on a monotonic clock with an arbitrary origin: only differences mean anything,
     * and only within this process.
     */
    long monotonicMs();

    /** Runs {@code task} once after {@code delayMs}; the returned handle cancels it. */
    Cancellable schedule(long delayMs, Runnable task);

    /** A scheduled task that can still be cancelled. */
    interface Cancellable {
        /** True if the task had not started and will now never run. */
        boolean cancel();
    }
}
