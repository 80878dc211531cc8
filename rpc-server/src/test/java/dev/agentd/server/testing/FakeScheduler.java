package dev.agentd.server.testing;

import dev.agentd.server.runtime.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Fake time for unit tests: nothing runs until {@link #advance} moves the clock past a task's due
 * time; due tasks then run on the advancing thread, in due order.
 */
public final class FakeScheduler implements Scheduler {
    private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            Comparator.comparingLong(Task::due).thenComparingLong(Task::sequence));
    private long now = 1_700_000_000_000L;
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
        return now;
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
