package dev.agentd.server.ai.http;

import dev.agentd.server.runtime.Scheduler;

/**
 * The two stream timers of one exchange on the injected {@link Scheduler}: first the stream-start
 * limit (sending → first body byte), then the idle limit (gap between events). The JDK client
 * stops enforcing its own timeout once headers arrived (JDK-8258397), hence this. Activity only
 * records a timestamp; the single pending timer re-checks and re-arms itself when it fires early,
 * so a 5000-event stream does not schedule 5000 timers. After the terminal event a short drain
 * limit applies instead. Firing runs {@code kill} (which closes the
 * body stream) and remembers why, so the reader can tell a timeout from a dropped connection.
 */
final class StreamWatchdog {
    enum Phase { START, IDLE, DRAIN }

    private final Scheduler scheduler;
    private final long startMs;
    private final long idleMs;
    private final Runnable kill;
    private Phase phase = Phase.START;
    private long startedAt;
    private long drainDeadline;
    private volatile long lastActivity;
    private Scheduler.Cancellable timer;
    private long timerDue;
    private boolean stopped;
    private volatile Phase fired;

    StreamWatchdog(Scheduler scheduler, ProviderTimeouts timeouts, Runnable kill) {
        this.scheduler = scheduler;
        this.startMs = timeouts.streamStartMs();
        this.idleMs = timeouts.streamIdleMs();
        this.kill = kill;
    }

    /** Starts the stream-start timer (call right before sending). */
    synchronized void start() {
        startedAt = scheduler.now();
        arm(startedAt + startMs);
    }

    /** The first body byte arrived: from now on the idle limit applies. */
    void firstByte() {
        long now = scheduler.now();
        synchronized (this) {
            if (phase != Phase.START || stopped) {
                return;
            }
            phase = Phase.IDLE;
            lastActivity = now;
            if (now + idleMs < timerDue) {
                arm(now + idleMs);
            }
        }
    }

    /** The reply is complete; allow only {@code ms} more for the body's end to arrive. */
    void draining(long ms) {
        long now = scheduler.now();
        synchronized (this) {
            if (stopped) {
                return;
            }
            phase = Phase.DRAIN;
            drainDeadline = now + Math.min(ms, idleMs);
            if (drainDeadline < timerDue) {
                arm(drainDeadline);
            }
        }
    }

    /** An event or keep-alive arrived. */
    void activity() {
        lastActivity = scheduler.now();
    }

    /** Cancels the pending timer; the watchdog never fires afterwards. */
    synchronized void stop() {
        stopped = true;
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    /** The phase whose limit expired, or null. */
    Phase fired() {
        return fired;
    }

    long limitMs(Phase which) {
        return which == Phase.START ? startMs : idleMs;
    }

    private void arm(long due) {
        if (timer != null) {
            timer.cancel();
        }
        timerDue = due;
        timer = scheduler.schedule(Math.max(0, due - scheduler.now()), this::check);
    }

    private void check() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            long now = scheduler.now();
            long due = switch (phase) {
                case START -> startedAt + startMs;
                case IDLE -> lastActivity + idleMs;
                case DRAIN -> drainDeadline;
            };
            if (now < due) {
                arm(due);
                return;
            }
            fired = phase;
            stopped = true;
            timer = null;
        }
        kill.run();
    }
}
