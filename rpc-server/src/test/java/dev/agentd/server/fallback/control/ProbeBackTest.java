package dev.agentd.server.fallback.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.FakeScheduler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * The probe-back controller on fake time (FALLBACK §5.5): timers on the scheduler, probes handed
 * to a worker whose queue the test runs by hand, so "never on the scheduler's thread" and "never
 * two in flight" are visible as queue contents.
 */
class ProbeBackTest {
    private static final Model PRIMARY = new Model("alpha-1", "alpha-1", "anthropic-messages", "alpha", "http://x",
            false, null, null, 200_000, 8192);

    private final FakeScheduler scheduler = new FakeScheduler();
    private final Deque<Runnable> queue = new ArrayDeque<>();
    private final Executor worker = queue::add;
    private final List<AgentEvent> events = new ArrayList<>();
    private final List<Model> cleared = new ArrayList<>();
    /** Outcomes the probe returns in order (empty = answered). */
    private final Deque<Optional<String>> outcomes = new ArrayDeque<>();
    private final List<CancellationToken> probed = new ArrayList<>();
    /** How many events had been emitted when each clearing happened. */
    private final List<Integer> eventsWhenCleared = new ArrayList<>();
    private final ProbeBack probes = new ProbeBack(scheduler, worker, this::probe, events::add, model -> {
        eventsWhenCleared.add(events.size());
        cleared.add(model);
    });

    private Optional<String> probe(Model model, CancellationToken cancel) {
        assertEquals(PRIMARY, model);
        probed.add(cancel);
        return outcomes.isEmpty() ? Optional.of("no outcome scripted") : outcomes.poll();
    }

    private void runWorker() {
        while (!queue.isEmpty()) {
            queue.poll().run();
        }
    }

    private long wall(long inMs) {
        return scheduler.now() + inMs;
    }

    @Test
    void probeOneAtHalfTheHintSucceedsAndClears() {
        long due = wall(1500);
        probes.arm(PRIMARY, 3000);
        runWorker();
        assertEquals(List.of(new AgentEvent.RetryProbeScheduled("alpha/alpha-1", due, 1)), events);
        outcomes.add(Optional.empty());

        scheduler.advance(1499);
        runWorker();
        assertEquals(0, probed.size(), "not before half the hint");
        scheduler.advance(1);
        assertEquals(0, probed.size(), "the timer only hands the probe to the worker");
        assertEquals(1, queue.size());
        runWorker();
        assertEquals(1, probed.size());
        assertEquals(List.of(PRIMARY), cleared);
        assertEquals(new AgentEvent.RetryProbeResult("alpha/alpha-1", true, null), events.get(events.size() - 1));
        assertEquals(List.of(events.size() - 1), eventsWhenCleared,
                "cleared before the result is emitted: a client acting on it finds the primary usable");
        assertFalse(probes.armed());

        scheduler.advance(10_000);
        runWorker();
        assertEquals(1, probed.size(), "the deadline probe is not sent after a success");
    }

    @Test
    void aFailedProbeOneIsFollowedByProbeTwoAtTheDeadline() {
        long deadline = wall(3000);
        probes.arm(PRIMARY, 3000);
        outcomes.add(Optional.of("429 rate_limit_error"));
        outcomes.add(Optional.of("429 again"));
        scheduler.advance(1500);
        runWorker();
        assertEquals(new AgentEvent.RetryProbeResult("alpha/alpha-1", false, "429 rate_limit_error"), events.get(1));
        assertEquals(new AgentEvent.RetryProbeScheduled("alpha/alpha-1", deadline, 2), events.get(2));
        scheduler.advance(1500);
        runWorker();
        assertEquals(2, probed.size());
        assertEquals(new AgentEvent.RetryProbeResult("alpha/alpha-1", false, "429 again"), events.get(3));
        assertEquals(4, events.size());
        assertEquals(List.of(), cleared);
        assertFalse(probes.armed());
    }

    @Test
    void theDeadlineAbortsAProbeStillInFlightBeforeTheSecondStarts() {
        probes.arm(PRIMARY, 3000);
        runWorker();
        scheduler.advance(1500); // probe 1 handed off; the worker is busy elsewhere
        scheduler.advance(1500); // the deadline: probe 1 is cut off, probe 2 queued behind it
        outcomes.add(Optional.empty());
        runWorker();
        assertEquals(1, probed.size(), "the cut-off probe 1 never went out; only probe 2 did");
        assertEquals(List.of(PRIMARY), cleared);
        assertEquals(List.of("retry_probe_scheduled", "retry_probe_scheduled", "retry_probe_result"),
                events.stream().map(AgentEvent::type).toList());
    }

    @Test
    void aNewPlanSupersedesTheOld() {
        probes.arm(PRIMARY, 3000);
        scheduler.advance(1000);
        probes.arm(PRIMARY, 10_000);
        runWorker();
        scheduler.advance(500); // the old plan's first due time: nothing
        runWorker();
        assertEquals(0, probed.size());
        assertEquals(List.of(5_000L), scheduler.pendingDelays().subList(0, 1).stream().map(d -> d + 500).toList(),
                "the new plan's first probe at half its hint");
        outcomes.add(Optional.empty());
        scheduler.advance(4500);
        runWorker();
        assertEquals(1, probed.size());
    }

    @Test
    void cancellingStopsEverythingAndAbortsTheProbeInFlight() {
        probes.arm(PRIMARY, 3000);
        runWorker();
        scheduler.advance(1500);
        probes.cancel();
        assertEquals(List.of(), scheduler.pendingDelays(), "both timers are gone");
        int before = events.size();
        runWorker();
        scheduler.advance(10_000);
        runWorker();
        assertEquals(0, probed.size(), "the queued probe saw its cancellation");
        assertEquals(before, events.size(), "nothing emitted after cancel");
        assertFalse(probes.armed());
    }

    @Test
    void aProbeThatThrowsCountsAsFailed() {
        ProbeBack throwing = new ProbeBack(scheduler, worker, (model, cancel) -> {
            throw new IllegalStateException("boom");
        }, events::add, cleared::add);
        throwing.arm(PRIMARY, 2);
        scheduler.advance(1);
        runWorker();
        assertTrue(events.contains(new AgentEvent.RetryProbeResult("alpha/alpha-1", false,
                "Probe failed: IllegalStateException")), events.toString());
    }
}
