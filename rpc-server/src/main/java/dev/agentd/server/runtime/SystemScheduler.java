package dev.agentd.server.runtime;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The real {@link Scheduler}: one daemon thread, created at startup so the first retry sleep is not
 * paid for by thread creation (SPEC §10 asks for sleeps within 20 ms of the announced delay).
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {
    private final ScheduledThreadPoolExecutor executor;

    public SystemScheduler() {
        executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "agentd-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.prestartCoreThread();
    }

    @Override
    public long now() {
        return System.currentTimeMillis();
    }

    @Override
    public Cancellable schedule(long delayMs, Runnable task) {
        ScheduledFuture<?> future = executor.schedule(task, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
