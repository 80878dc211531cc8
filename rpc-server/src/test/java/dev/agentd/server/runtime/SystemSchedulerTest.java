package dev.agentd.server.runtime;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The real scheduler: its timing thread never runs a task, so one task that blocks stalls no other. */
class SystemSchedulerTest {
    final SystemScheduler scheduler = new SystemScheduler();
    final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void tearDown() {
        release.countDown();
        scheduler.close();
    }

    @Test
    void aBlockedTaskDoesNotDelayTheNextTimer() {
        AtomicBoolean blocking = new AtomicBoolean();
        scheduler.schedule(0, () -> {
            blocking.set(true);
            awaitQuietly(release); // e.g. a run holding its lock while stdout is full
        });
        await().untilTrue(blocking);
        AtomicReference<String> ranOn = new AtomicReference<>();
        scheduler.schedule(5, () -> ranOn.set(Thread.currentThread().getName()));

        await().until(() -> ranOn.get() != null);
        assertNotEquals("agentd-scheduler", ranOn.get());
        assertTrue(ranOn.get().startsWith("agentd-timer-task-"), ranOn.get());
    }

    @Test
    void aCancelledTaskNeverRuns() {
        AtomicBoolean ran = new AtomicBoolean();
        Scheduler.Cancellable handle = scheduler.schedule(60_000, () -> ran.set(true));
        assertTrue(handle.cancel());
        AtomicBoolean later = new AtomicBoolean();
        scheduler.schedule(0, () -> later.set(true));
        await().untilTrue(later);
        assertTrue(!ran.get());
    }

    @Test

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
