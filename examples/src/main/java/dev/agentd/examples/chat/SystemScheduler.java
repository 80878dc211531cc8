package dev.agentd.examples.chat;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** The real clock: System.nanoTime and one daemon timer thread. */
public final class SystemScheduler implements Scheduler, AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "chat-timer");
        thread.setDaemon(true); // a pending tick must never keep the program alive
        return thread;
    });

    @Override
    public long nowMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }

    @Override
    public Runnable schedule(long delayMs, Runnable task) {
        ScheduledFuture<?> future = timer.schedule(task, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
