package dev.agentd.server.ai.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.agentd.server.runtime.OutputBackpressure;
import dev.agentd.server.testing.FakeScheduler;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The stream timers on fake time (monotonic; the wall clock may jump): one pending timer, re-armed
 * lazily, firing once; keep-alive comments count only before the first event and within the
 * first-event limit.
 */
class StreamWatchdogTest {
    final FakeScheduler clock = new FakeScheduler();
    final AtomicInteger kills = new AtomicInteger();
    final StreamWatchdog watchdog = new StreamWatchdog(clock, new ProviderTimeouts(1_000, 5_000, 300, 2_000),
            kills::incrementAndGet);

    @Test
    void withoutAFirstByteTheStartLimitFires() {
        watchdog.start();
        clock.advance(4_999);
        assertEquals(0, kills.get());
        clock.advance(1);
        assertEquals(1, kills.get());
        assertEquals(StreamWatchdog.Limit.START, watchdog.fired());
        assertEquals(5_000, watchdog.limitMs(watchdog.fired()));
    }

    @Test
    void theFirstByteSwitchesToTheIdleLimitAndActivityPostponesIt() {
        watchdog.start();
        clock.advance(100);
        watchdog.firstByte();
        assertEquals(List.of(300L), clock.pendingDelays(), "re-armed for the earlier idle deadline");
        clock.advance(200);
        watchdog.event();
        clock.advance(200);
        assertEquals(0, kills.get(), "activity 200 ms ago");
        assertEquals(List.of(100L), clock.pendingDelays(), "one timer, re-armed for the remainder");
        clock.advance(100);
        assertEquals(1, kills.get());
        assertEquals(StreamWatchdog.Limit.IDLE, watchdog.fired());
    }

    @Test
    void manyEventsScheduleNoExtraTimers() {
        watchdog.start();
        watchdog.firstByte();
        for (int i = 0; i < 1000; i++) {
            watchdog.event();
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
        assertEquals(StreamWatchdog.Limit.DRAIN, watchdog.fired());
    }

    @Test
    void settingTheWallClockDoesNotMoveAnyLimit() {
        watchdog.start();
        clock.setWallClock(clock.now() + 3_600_000);
        clock.advance(4_999);
        assertEquals(0, kills.get(), "an hour of wall-clock jump is not silence");
        watchdog.firstByte();
        clock.setWallClock(clock.now() - 3_600_000);
        watchdog.event();
        clock.advance(299);
        assertEquals(0, kills.get(), "a wall clock set back does not stretch the idle limit either");
        clock.advance(1);
        assertEquals(StreamWatchdog.Limit.IDLE, watchdog.fired());
    }

    @Test
    void commentsKeepTheStreamAliveOnlyUntilTheFirstEventDeadline() {
        watchdog.start();
        watchdog.firstByte();
        for (int i = 0; i < 9; i++) {
            clock.advance(200);
            watchdog.comment();
        }
        assertEquals(0, kills.get(), "1800 ms of comments, each within the 300 ms idle limit");
        clock.advance(199);
        assertEquals(0, kills.get());
        clock.advance(1);
        assertEquals(1, kills.get(), "no event within 2000 ms of sending");
        assertEquals(StreamWatchdog.Limit.FIRST_EVENT, watchdog.fired());
        assertEquals(2_000, watchdog.limitMs(watchdog.fired()));
    }

    @Test
    void silenceBeforeTheFirstEventIsStillAnIdleTimeout() {
        watchdog.start();
        watchdog.firstByte();
        clock.advance(300);
        assertEquals(StreamWatchdog.Limit.IDLE, watchdog.fired());
    }

    @Test
    void afterTheFirstEventCommentsAreNotProgress() {
        watchdog.start();
        watchdog.firstByte();
        watchdog.event();
        clock.advance(200);
        watchdog.comment();
        clock.advance(100);
        assertEquals(1, kills.get(), "the comment did not postpone the idle limit");
        assertEquals(StreamWatchdog.Limit.IDLE, watchdog.fired());
    }

    @Test
    void eventsAfterTheFirstEventDeadlineKeepTheStreamGoing() {
        watchdog.start();
        watchdog.firstByte();
        watchdog.event();
        for (int i = 0; i < 20; i++) {
            clock.advance(250);
            watchdog.event();
        }
        assertEquals(0, kills.get(), "5000 ms of events: the first-event limit applies only to the first");
        assertNull(watchdog.fired());
    }

    @Test
    void timeBlockedOnStdoutIsNotSilenceAndTheIdleClockRestartsAfterIt() {
        OutputBackpressure output = new OutputBackpressure(clock::monotonicMs);
        StreamWatchdog paced = new StreamWatchdog(clock, new ProviderTimeouts(1_000, 5_000, 300, 2_000),
                kills::incrementAndGet, output);
        paced.start();
        paced.firstByte();
        paced.event();
        clock.advance(100);
        output.waiting(); // the run thread emits the next delta into a full stdout queue
        for (int i = 0; i < 50; i++) {
            clock.advance(100);
        }
        assertEquals(0, kills.get(), "5 s blocked on the client, 300 ms idle limit: not the provider's silence");
        output.resumed();
        clock.advance(299);
        assertEquals(0, kills.get(), "the idle clock restarted when the wait ended");
        clock.advance(1);
        assertEquals(1, kills.get(), "then real silence is still caught");
        assertEquals(StreamWatchdog.Limit.IDLE, paced.fired());
    }

    @Test
    void aWaitBeforeTheFirstBytePausesTheStartLimitToo() {
        OutputBackpressure output = new OutputBackpressure(clock::monotonicMs);
        StreamWatchdog paced = new StreamWatchdog(clock, new ProviderTimeouts(1_000, 5_000, 300, 2_000),
                kills::incrementAndGet, output);
        paced.start();
        clock.advance(1_000);
        output.waiting(); // message_start, emitted once headers arrived, waits for room
        clock.advance(10_000);
        assertEquals(0, kills.get());
        output.resumed();
        clock.advance(4_999);
        assertEquals(0, kills.get());
        clock.advance(1);
        assertEquals(StreamWatchdog.Limit.START, paced.fired());
    }
}
