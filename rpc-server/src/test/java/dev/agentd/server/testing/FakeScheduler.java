package dev.agentd.server.testing;

import dev.agentd.server.runtime.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Fake time for unit tests: nothing runs until {@link #advance} moves the clock past a task's due
 * time; due tasks then run on the advancing thread, in due order. {@link #advance} moves the wall
 * clock and the monotonic clock together; {@link #setWallClock} moves only the wall clock, as an
 * administrator or NTP would, so tests can show that durations ignore it.
 */
public final class FakeScheduler implements Scheduler {
    private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            Comparator.comparingLong(Task::due).thenComparingLong(Task::sequence));
    /** Monotonic time: what task due times are measured on. Its origin is arbitrary. */
    private long now = 5_000_000L;
    /** The wall clock minus the monotonic clock. */
    private long wallOffset = 1_700_000_000_000L - now;
    private long sequence;

    private final class Task implements Cancellable {
        private final long due;
        private final long seq;
        private final Runnable action;
        private boolean cancelled;

        Task(long due, long seq, Runnable action) {
            this.due = due;
            this.seq = seq;
            this.action = action;
        }

        long due() {
            return due;
        }

        long sequence() {
            return seq;
        }

        @Override
        public boolean cancel() {
            synchronized (FakeScheduler.this) {
                boolean pending = tasks.remove(this);
                cancelled = true;
                return pending;
            }
        }
    }

    @Override
    public synchronized long now() {
        return now + wallOffset;
    }

    @Override
    public synchronized long monotonicMs() {
        return now;
    }

    /** Sets the wall clock to {@code epochMs}; the monotonic clock and pending tasks are unaffected. */
    public synchronized void setWallClock(long epochMs) {
        wallOffset = epochMs - now;
    }

    @Override
    public synchronized Cancellable schedule(long delayMs, Runnable task) {
        Task scheduled = new Task(now + Math.max(0, delayMs), sequence++, task);
        tasks.add(scheduled);
        return scheduled;
    }

    /** Moves time forward by {@code ms}, running every task that falls due on the way. */
    public void advance(long ms) {
        long target;
        synchronized (this) {
            target = now + ms;
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.peek();
                if (next == null || next.due > target) {
                    now = target;
                    return;
                }
                tasks.poll();
                now = next.due;
            }
            next.action.run();
        }
    }

    /** Delays (from now) of the tasks still pending, in due order. */
    public synchronized List<Long> pendingDelays() {
        List<Task> ordered = new ArrayList<>(tasks);
        ordered.sort(tasks.comparator());
        return ordered.stream().map(task -> task.due - now).toList();
    }
}
