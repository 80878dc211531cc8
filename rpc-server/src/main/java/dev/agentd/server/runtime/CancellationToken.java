package dev.agentd.server.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Cooperative cancellation of one run: providers close their HTTP exchange and tools kill their
 * processes from a registered callback, loops poll {@link #isCancelled()}. Cancelling is
 * idempotent; callbacks registered after cancellation run at once.
 */
public final class CancellationToken {
    private final List<Runnable> callbacks = new ArrayList<>();
    private boolean cancelled;

    /**
     * A fresh token for a call no one means to cancel: it stays uncancelled as long as no holder
     * calls {@link #cancel()} (nothing stops one from doing so; each call gets its own token).
     */
    public static CancellationToken none() {
        return new CancellationToken();
    }

    public void cancel() {
        List<Runnable> toRun;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            toRun = List.copyOf(callbacks);
            callbacks.clear();
        }
        for (Runnable callback : toRun) {
            callback.run();
        }
    }

    public synchronized boolean isCancelled() {
        return cancelled;
    }

    /** Runs {@code callback} on cancellation (now, if already cancelled); the result unregisters it. */
    public Runnable onCancel(Runnable callback) {
        synchronized (this) {
            if (!cancelled) {
                callbacks.add(callback);
                return () -> {
                    synchronized (this) {
                        callbacks.remove(callback);
                    }
                };
            }
        }
        callback.run();
        return () -> {};
    }

    /**
     * Blocks for {@code delayMs} of scheduler time unless cancelled first.
     *
     * @return true if the full delay elapsed, false if cancelled
     */
    public boolean sleep(Scheduler scheduler, long delayMs) {
        if (delayMs <= 0) {
            return !isCancelled();
        }
        CountDownLatch wake = new CountDownLatch(1);
        Scheduler.Cancellable timer = scheduler.schedule(delayMs, wake::countDown);
        Runnable unregister = onCancel(wake::countDown);
        try {
            wake.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
        } finally {
            timer.cancel();
            unregister.run();
        }
        return !isCancelled();
    }
}
