package dev.agentd.server.ai.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.agentd.server.testing.FakeScheduler;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The stream timers on fake time: one pending timer, re-armed lazily, firing once. */
class StreamWatchdogTest {
    final FakeScheduler clock = new FakeScheduler();
    final AtomicInteger kills = new AtomicInteger();
    final StreamWatchdog watchdog = new StreamWatchdog(clock, new ProviderTimeouts(1_000, 5_000, 300),
            kills::incrementAndGet);

    @Test
    void withoutAFirstByteTheStartLimitFires() {
        watchdog.start();
        clock.advance(4_999);
        assertEquals(0, kills.get());
        clock.advance(1);
        assertEquals(1, kills.get());
        assertEquals(StreamWatchdog.Phase.START, watchdog.fired());
        assertEquals(5_000, watchdog.limitMs(watchdog.fired()));
    }

    @Test
    void theFirstByteSwitchesToTheIdleLimitAndActivityPostponesIt() {
        watchdog.start();
        clock.advance(100);
        watchdog.firstByte();
        assertEquals(List.of(300L), clock.pendingDelays(), "re-armed for the earlier idle deadline");
        clock.advance(200);
        watchdog.activity();
        clock.advance(200);
        assertEquals(0, kills.get(), "activity 200 ms ago");
        assertEquals(List.of(100L), clock.pendingDelays(), "one timer, re-armed for the remainder");
        clock.advance(100);
        assertEquals(1, kills.get());
        assertEquals(StreamWatchdog.Phase.IDLE, watchdog.fired());
    }

    @Test
    void manyEventsScheduleNoExtraTimers() {
        watchdog.start();
        watchdog.firstByte();
        for (int i = 0; i < 1000; i++) {
            watchdog.activity();
        }
        assertEquals(1, clock.pendingDelays().size());
    }

    @Test
    void stoppingCancelsTheTimerForGood() {
        watchdog.start();
        watchdog.stop();
        assertEquals(List.of(), clock.pendingDelays());
        clock.advance(10_000);
        assertEquals(0, kills.get());
        assertNull(watchdog.fired());
    }

    @Test
    void drainingAllowsOnlyAShortTail() {
        watchdog.start();
        watchdog.firstByte();
        watchdog.draining(50);
        clock.advance(50);
        assertEquals(1, kills.get());
        assertEquals(StreamWatchdog.Phase.DRAIN, watchdog.fired());
    }
}
