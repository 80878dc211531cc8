package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;

import dev.agentd.server.runtime.Scheduler;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** RunControl's retry timer against a scheduler that fires before schedule() has returned. */
class RunControlTest {

    /**
     * Runs each task at once on its own thread and returns only when that thread is blocked (on
     * the caller's lock) or done: the worst case of a short backoff on a busy machine.
     */
    private static final class EagerScheduler implements Scheduler {
        @Override
        public long now() {
            return 0;
        }

        @Override
        public long monotonicMs() {
            return 0;
        }

        @Override
        public Cancellable schedule(long delayMs, Runnable task) {
            Thread timer = new Thread(task, "eager-timer");
            timer.start();
            await().until(() -> timer.getState() == Thread.State.BLOCKED
                    || timer.getState() == Thread.State.TERMINATED);
            return () -> false;
        }
    }

    @Test
    void aRetryTimerThatFiresBeforeScheduleReturnsStillWakesTheRetry() {
        RunControl control = new RunControl(event -> { }, new EagerScheduler(), aborted -> { });
        RunControl.Start start = control.startOrElse(() -> { });
        AtomicBoolean woke = new AtomicBoolean();

        control.scheduleRetry(1, 3, 10, "529 overloaded", start.token(), () -> { }, () -> woke.set(true));

        await().untilTrue(woke);
    }
}
