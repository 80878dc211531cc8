package dev.agentd.examples.chat;

import java.util.function.Consumer;

/**
 * The live "Retrying (attempt/max) in Ns… (esc to cancel)" text while a retry waits: shown at once,
 * then rewritten each time the whole number of seconds left changes, until the wait is over.
 * Seconds round up, so a 2000 ms wait reads 2s, then 1s, then "now" when the retry starts.
 */
final class RetryCountdown {
    private final Scheduler scheduler;
    private final Consumer<String> display;
    private long generation; // bumped by start/stop so a tick already queued does nothing
    private Runnable cancelTick = () -> { };

    /** {@code display} must not call back into this countdown's owner's locks (ticks run on the timer thread). */
    RetryCountdown(Scheduler scheduler, Consumer<String> display) {
        this.scheduler = scheduler;
        this.display = display;
    }

    /** Shows the countdown for a retry announced now; replaces any countdown still running. */
    synchronized void start(int attempt, int maxAttempts, long delayMs) {
        stop();
        long deadline = scheduler.nowMillis() + Math.max(0, delayMs);
        show(generation, attempt, maxAttempts, deadline);
    }

    /** Stops ticking; the display keeps the last text (the caller clears it). */
    synchronized void stop() {
        generation++;
        cancelTick.run();
        cancelTick = () -> { };
    }

    static String text(int attempt, int maxAttempts, long remainingMs) {
        String when = remainingMs > 0 ? "in " + wholeSeconds(remainingMs) + "s" : "now";
        return "Retrying (" + attempt + "/" + maxAttempts + ") " + when + "… (esc to cancel)";
    }

    private synchronized void show(long shownGeneration, int attempt, int maxAttempts, long deadline) {
        if (shownGeneration != generation) {
            return; // stopped or restarted since this tick was scheduled
        }
        long remaining = deadline - scheduler.nowMillis();
        display.accept(text(attempt, maxAttempts, remaining));
        if (remaining > 0) {
            // Next tick when the displayed number of seconds drops by one.
            long untilChange = remaining - (wholeSeconds(remaining) - 1) * 1000;
            cancelTick = scheduler.schedule(untilChange,
                    () -> show(shownGeneration, attempt, maxAttempts, deadline));
        }
    }

    private static long wholeSeconds(long millis) {
        return (millis + 999) / 1000;
    }
}
