package dev.agentd.server.runtime;

/**
 * Time and delayed execution, injected everywhere a rule depends on time (retry backoff, stream
 * pacing, timeouts) so tests can drive it on fake time. {@link SystemScheduler} is the real one.
 */
public interface Scheduler {

    /** Wall-clock time in epoch milliseconds (message timestamps, credential blocks). */
    long now();

    /** Runs {@code task} once after {@code delayMs}; the returned handle cancels it. */
    Cancellable schedule(long delayMs, Runnable task);

    /** A scheduled task that can still be cancelled. */
    interface Cancellable {
        /** True if the task had not started and will now never run. */
        boolean cancel();
    }
}
