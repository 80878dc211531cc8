package dev.agentd.server.ai.http;

import dev.agentd.server.runtime.OutputBackpressure;
import dev.agentd.server.runtime.Scheduler;

/**
 * The stream timers of one exchange on the injected {@link Scheduler}'s monotonic clock: first the
 * stream-start limit (sending → first body byte), then the idle limit (gap between events). The
 * JDK client stops enforcing its own timeout once headers arrived (JDK-8258397), hence this.
 *
 * <p>Keep-alive comments ({@code : ping}) prove the connection is open, not that the reply
 * progresses: they reset the idle timer only until the first event, and the first event must come
 * within the first-event limit of sending regardless. After the first event only events count, so
 * a server that sends nothing but comments always ends (as a stream-start or idle timeout).
 *
 * <p>Activity only records a timestamp; the single pending timer re-checks and re-arms itself
 * when it fires early, so a 5000-event stream does not schedule 5000 timers. After the terminal
 * event a short drain limit applies instead. Firing runs {@code kill} (which closes the body
 * stream) and remembers why, so the reader can tell a timeout from a dropped connection.
 *
 * <p>Time the reading thread spends waiting for the client to take stdout is not the provider's
 * (issue 22, N3): that thread emits the reply's events itself, and while stdout is full it reads
 * nothing. So no limit fires while {@link OutputBackpressure} reports a blocked producer, and each
 * limit's clock restarts when the wait ends. (The drain limit is exempt: nothing is emitted then.)
 */
final class StreamWatchdog {
    /** Which limit ended the exchange. */
    enum Limit { START, FIRST_EVENT, IDLE, DRAIN }

    /** {@code WAITING_EVENT}: bytes (perhaps only comments) arrived, no event yet. */
    private enum Phase { START, WAITING_EVENT, STREAMING, DRAIN }

    private record Deadline(long at, Limit limit) {}

    private final Scheduler scheduler;
    private final long startMs;
    private final long idleMs;
    private final long firstEventMs;
    private final Runnable kill;
    private final OutputBackpressure output;
    private volatile Phase phase = Phase.START;
    private long startedAt;
    private long drainDeadline;
    private volatile long lastActivity;
    private Scheduler.Cancellable timer;
    private long timerDue;
    private boolean stopped;
    private volatile Limit fired;

    StreamWatchdog(Scheduler scheduler, ProviderTimeouts timeouts, Runnable kill) {
        this(scheduler, timeouts, kill, OutputBackpressure.NONE);
    }

    StreamWatchdog(Scheduler scheduler, ProviderTimeouts timeouts, Runnable kill, OutputBackpressure output) {
        this.scheduler = scheduler;
        this.output = output;
        this.startMs = timeouts.streamStartMs();
        this.idleMs = timeouts.streamIdleMs();
        this.firstEventMs = timeouts.firstEventMs();
        this.kill = kill;
    }

    /** Starts the stream-start timer (call right before sending, once the client exists). */
    synchronized void start() {
        startedAt = scheduler.monotonicMs();
        arm(deadline().at());
    }

    /** The first body byte arrived: from now on the idle limit applies. */
    void firstByte() {
        long now = scheduler.monotonicMs();
        synchronized (this) {
            if (phase != Phase.START || stopped) {
                return;
            }
            phase = Phase.WAITING_EVENT;
            lastActivity = now;
            rearmIfSooner(deadline().at());
        }
    }

    /**
     * An event arrived. The pending timer is never later than the new idle deadline, so it only
     * needs to re-check when it fires.
     */
    void event() {
        lastActivity = scheduler.monotonicMs();
        if (phase == Phase.WAITING_EVENT) {
            synchronized (this) {
                if (phase == Phase.WAITING_EVENT) {
                    phase = Phase.STREAMING;
                }
            }
        }
    }

    /** A keep-alive comment arrived: it counts only while no event has come yet. */
    void comment() {
        if (phase == Phase.WAITING_EVENT) {
            lastActivity = scheduler.monotonicMs();
        }
    }

    /** The reply is complete; allow only {@code ms} more for the body's end to arrive. */
    void draining(long ms) {
        long now = scheduler.monotonicMs();
        synchronized (this) {
            if (stopped) {
                return;
            }
            phase = Phase.DRAIN;
            drainDeadline = now + Math.min(ms, idleMs);
            rearmIfSooner(drainDeadline);
        }
    }

    /** Cancels the pending timer; the watchdog never fires afterwards. */
    synchronized void stop() {
        stopped = true;
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    /** The limit that expired, or null. */
    Limit fired() {
        return fired;
    }

    long limitMs(Limit which) {
        return switch (which) {
            case START -> startMs;
            case FIRST_EVENT -> firstEventMs;
            case IDLE, DRAIN -> idleMs;
        };
    }

    /**
     * When the current phase's limit expires, and which limit that is: never sooner than the limit
     * after the last wait for stdout ended.
     */
    private Deadline deadline() {
        Deadline deadline = phaseDeadline();
        if (deadline.limit() == Limit.DRAIN) {
            return deadline;
        }
        long afterWait = output.lastResumedMs() + limitMs(deadline.limit()); // MIN_VALUE + limit: no wait yet
        return afterWait > deadline.at() ? new Deadline(afterWait, deadline.limit()) : deadline;
    }

    private Deadline phaseDeadline() {
        return switch (phase) {
            case START -> new Deadline(startedAt + startMs, Limit.START);
            case WAITING_EVENT -> lastActivity + idleMs < startedAt + firstEventMs
                    ? new Deadline(lastActivity + idleMs, Limit.IDLE)
                    : new Deadline(startedAt + firstEventMs, Limit.FIRST_EVENT);
            case STREAMING -> new Deadline(lastActivity + idleMs, Limit.IDLE);
            case DRAIN -> new Deadline(drainDeadline, Limit.DRAIN);
        };
    }

    private void rearmIfSooner(long due) {
        if (due < timerDue) {
            arm(due);
        }
    }

    private void arm(long due) {
        if (timer != null) {
            timer.cancel();
        }
        timerDue = due;
        timer = scheduler.schedule(Math.max(0, due - scheduler.monotonicMs()), this::check);
    }

    private void check() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            Deadline deadline = deadline();
            long now = scheduler.monotonicMs();
            if (deadline.limit() != Limit.DRAIN && output.blocked()) {
                arm(now + limitMs(deadline.limit())); // look again later; the wait's end restarts the clock
                return;
            }
            if (now < deadline.at()) {
                arm(deadline.at());
                return;
            }
            fired = deadline.limit();
            stopped = true;
            timer = null;
        }
        kill.run();
    }
}
