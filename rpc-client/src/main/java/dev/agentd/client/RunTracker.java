package dev.agentd.client;

import dev.agentd.protocol.event.AgentEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The client's view of the agent's activity: one global {@link RunState} (for waitForIdle) and one
 * per {@link Watch} (for promptAndWait, which starts from a snapshot of the global state). All
 * state changes happen under one lock and signal one condition, so every wait — including the
 * willRetry-absent grace period — is a timed await on that condition, never a sleep.
 *
 * <p>State is updated before listeners see an event (so a listener observes the new state), but
 * waiters are released only once the listeners are done with it: when promptAndWait returns, every
 * listener has seen the run's last event.
 */
final class RunTracker {

    enum Outcome { IDLE, TIMEOUT }

    /** Events and state seen by one waiting caller since it subscribed. */
    static final class Watch {
        private final RunState state;
        private final String promptId;
        private final List<AgentEvent> events = new ArrayList<>();
        /** The prompt answer's disposition (pi 1.x), null until answered or from older daemons. */
        private String disposition;

        private Watch(RunState state, String promptId) {
            this.state = state;
            this.promptId = promptId;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final RunState global = new RunState();
    private final Set<Watch> watches = new CopyOnWriteArraySet<>();
    private final long graceNanos;
    private final LongSupplier nanos;
    private RpcException failure;
    private long applied; // events applied to the states
    private long delivered; // events all listeners have seen

    /** @param nanos the clock of the grace windows and run deadlines, on the {@link System#nanoTime()} scale */
    RunTracker(long graceNanos, LongSupplier nanos) {
        this.graceNanos = graceNanos;
        this.nanos = nanos;
    }

    /** A tracker on the real monotonic clock (what every client uses; tests pass their own). */
    static RunTracker onSystemNanoTime(long graceNanos) {
        return new RunTracker(graceNanos, System::nanoTime);
    }

    /** The deadline {@code timeout} from now, on this tracker's clock (for {@link #await}). */
    long deadlineAfter(Duration timeout) {
        return Deadlines.from(timeout, nanos.getAsLong());
    }

    /** The clock moved without an event (a test's fake clock): waiters re-check their grace and deadline. */
    void clockAdvanced() {
        update(() -> { });
    }

    /** Applies an event; {@link #delivered()} must follow once the listeners have seen it. */
    void onEvent(AgentEvent event) {
        lock.lock();
        try {
            long now = nanos.getAsLong();
            global.apply(event, now, graceNanos);
            for (Watch watch : watches) {
                watch.state.apply(event, now, graceNanos);
                watch.events.add(event);
            }
            applied++;
        } finally {
            lock.unlock();
        }
    }

    /** The listeners are done with the last applied event: waiters may now act on it. */
    void delivered() {
        update(() -> delivered = applied);
    }

    /** A prompt without streamingBehavior was sent: busy until its agent_start or its failure. */
    void promptSent(String id) {
        update(() -> global.promptSent(id));
    }

    /** The prompt was answered with {@code success:false}: it will start no run. */
    void promptSettled(String id) {
        update(() -> {
            global.promptSettled(id);
            watches.forEach(watch -> watch.state.promptSettled(id));
        });
    }

    /**
     * A prompt, steer or follow_up was answered with pi 1.x's disposition: the daemon ends every run
     * with agent_settled, so runs are waited for until it comes. A {@code handled} prompt starts no run.
     *
     * @param promptId the prompt's id, or null for steer and follow_up
     */
    void answered(String promptId, String disposition) {
        update(() -> {
            global.settles();
            for (Watch watch : watches) {
                watch.state.settles();
                if (promptId != null && promptId.equals(watch.promptId)) {
                    watch.disposition = disposition;
                }
            }
            if (promptId != null && "handled".equals(disposition)) {
                global.promptSettled(promptId);
                watches.forEach(watch -> watch.state.promptSettled(promptId));
            }
        });
    }

    /** The connection is gone: every current and future wait throws {@code reason}. */
    void fail(RpcException reason) {
        update(() -> {
            if (failure == null) {
                failure = reason;
            }
        });
    }

    /**
     * Starts collecting events for a caller, from a snapshot of the current state. For a prompt
     * ({@code promptId} non-null) the watch also waits for the run the prompt starts — unless it
     * was sent with a streamingBehavior while the agent is busy: then it joins the current run.
     */
    Watch watch(String promptId, boolean hasStreamingBehavior) {
        lock.lock();
        try {
            Watch watch = new Watch(global.copy(), promptId);
            boolean joinsCurrentRun = hasStreamingBehavior && !watch.state.isIdle(nanos.getAsLong());
            if (promptId != null && !joinsCurrentRun) {
                watch.state.promptSent(promptId);
            }
            watches.add(watch);
            return watch;
        } finally {
            lock.unlock();
        }
    }

    void unwatch(Watch watch) {
        watches.remove(watch);
    }

    boolean isIdle() {
        return locked(() -> global.isIdle(nanos.getAsLong()));
    }

    List<AgentEvent> events(Watch watch) {
        return locked(() -> List.copyOf(watch.events));
    }

    /** The watch's events and its prompt's disposition. */
    PromptResult result(Watch watch) {
        return locked(() -> new PromptResult(watch.events, watch.disposition));
    }

    /** Waits until the global state is idle. */
    Outcome awaitIdle(long deadlineNanos) {
        return await(null, deadlineNanos);
    }

    /** Waits until the watch's state is idle. */
    Outcome await(Watch watch, long deadlineNanos) {
        RunState state = watch == null ? global : watch.state;
        lock.lock();
        try {
            while (true) {
                long now = nanos.getAsLong();
                if (state.isIdle(now) && delivered == applied) {
                    return Outcome.IDLE;
                }
                if (failure != null) {
                    throw failure.rethrowFor(null);
                }
                long left = deadlineNanos - now;
                if (left <= 0) {
                    return Outcome.TIMEOUT;
                }
                long grace = state.graceRemaining(now);
                changed.awaitNanos(grace > 0 ? Math.min(left, grace) : left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException("Interrupted while waiting for the agent", null, null, null, e);
        } finally {
            lock.unlock();
        }
    }

    /** The state, for timeout messages. */
    String describe(Watch watch) {
        return locked(() -> (watch == null ? global : watch.state).toString());
    }

    private void update(Runnable change) {
        lock.lock();
        try {
            change.run();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private <T> T locked(java.util.function.Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }
}
