package dev.agentd.examples.chat;

/** Time for the chat's timers, injected so tests can advance it by hand. */
public interface Scheduler {

    /** Milliseconds on a monotonic clock (only differences mean anything). */
    long nowMillis();

    /** Runs {@code task} once after {@code delayMs}; the returned action cancels it. */
    Runnable schedule(long delayMs, Runnable task);
}
