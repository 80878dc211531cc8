package dev.agentd.client;

import java.time.Duration;

/** Timeouts as deadlines on the {@link System#nanoTime()} scale. */
final class Deadlines {
    private Deadlines() {}

    /** Absurdly long timeouts saturate (at about 73 years) instead of overflowing. */
    static long from(Duration timeout) {
        return from(timeout, System.nanoTime());
    }

    /** As {@link #from(Duration)}, on a clock that reads {@code now}. */
    static long from(Duration timeout, long now) {
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE;
        }
        return now + Math.min(Math.max(0, nanos), Long.MAX_VALUE / 4);
    }

    static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    static String format(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}
