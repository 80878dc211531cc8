package dev.agentd.server.runtime;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Whether a thread of this process is waiting for the client to read stdout, and when the last
 * such wait ended (issue 22, N3). The stdout queue reports its producers' waits; the stream
 * watchdogs read it, because a run thread waiting for room on stdout is not reading its provider's
 * stream: that time is the client's, never provider silence. One gauge per process, as there is
 * one stdout: a full queue stalls every session's next record alike.
 */
public final class OutputBackpressure {
    /** A gauge nothing reports to: never blocked (tests, and providers built without stdout). */
    public static final OutputBackpressure NONE = new OutputBackpressure(() -> 0);

    private final LongSupplier monotonicMs;
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile long lastResumedMs = Long.MIN_VALUE;

    /** @param monotonicMs the clock of the watchdogs that read the gauge ({@code Scheduler::monotonicMs}) */
    public OutputBackpressure(LongSupplier monotonicMs) {
        this.monotonicMs = monotonicMs;
    }

    /** A producer starts waiting for room. */
    public void waiting() {
        waiting.incrementAndGet();
    }

    /** A producer stopped waiting (room, or stdout closed). */
    public void resumed() {
        lastResumedMs = monotonicMs.getAsLong(); // before the count drops: whoever sees 0 sees this too
        waiting.decrementAndGet();
    }

    /** True while at least one producer waits for the client. */
    public boolean blocked() {
        return waiting.get() > 0;
    }

    /** When the last wait ended (monotonic ms), or {@link Long#MIN_VALUE} if none has. */
    public long lastResumedMs() {
        return lastResumedMs;
    }
}
