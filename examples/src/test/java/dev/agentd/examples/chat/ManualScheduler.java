package dev.agentd.examples.chat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Fake time: nothing runs until {@link #advance} moves the clock; due tasks then run on the caller's thread. */
final class ManualScheduler implements Scheduler {
    private record Task(long dueMillis, long order, Runnable action) {}

    private final List<Task> tasks = new ArrayList<>();
    private long now = 1_000_000; // arbitrary origin: only differences count
    private long scheduled;

    @Override
    public synchronized long nowMillis() {
        return now;
    }

    @Override
    public synchronized Runnable schedule(long delayMs, Runnable task) {
        Task entry = new Task(now + Math.max(0, delayMs), scheduled++, task);
        tasks.add(entry);
        return () -> cancel(entry);
    }

    /** Moves the clock forward, running every task that falls due on the way, in time order. */
    void advance(long millis) {
        long target;
        synchronized (this) {
            target = now + millis;
        }
        for (Optional<Task> next = takeDue(target); next.isPresent(); next = takeDue(target)) {
            next.get().action().run(); // outside the lock: tasks take their owners' locks
        }
        synchronized (this) {
            now = target;
        }
    }

    synchronized int pending() {
        return tasks.size();
    }

    private synchronized Optional<Task> takeDue(long target) {
        Optional<Task> next = tasks.stream()
                .filter(task -> task.dueMillis() <= target)
                .min(Comparator.comparingLong(Task::dueMillis).thenComparingLong(Task::order));
        next.ifPresent(task -> {
            tasks.remove(task);
            now = task.dueMillis();
        });
        return next;
    }

    private synchronized void cancel(Task task) {
        tasks.remove(task);
    }
}
