package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.fallback.ProbePlan.Effect;
import dev.agentd.server.fallback.ProbePlan.Step;
import dev.agentd.server.fallback.ProbePlan.Timer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The probe-back schedule (FALLBACK §5.5) on fake time: due times, supersede, cancel, never two in flight. */
class ProbePlanTest {
    private static final long NOW = 1_000;

    private static Step armed(long hint) {
        return ProbePlan.NONE.arm("p/m", hint, NOW);
    }

    @Test
    void probeOneIsDueAtHalfTheHintAndProbeTwoAtTheDeadline() {
        Step step = armed(3001);
        assertEquals(List.of(new Effect.Announce(1, NOW + 1501)), step.effects(), "ceil(hint/2), announced at once");
        assertEquals(NOW + 3001, step.plan().deadlineMs());
        assertTrue(step.plan().armed());
        assertEquals(List.of(new Effect.Launch(1)), step.plan().timer(1, Timer.FIRST).effects());
    }

    @Test
    void aSuccessfulFirstProbeClearsAndEndsThePlan() {
        ProbePlan running = armed(3000).plan().timer(1, Timer.FIRST).plan();
        Step ok = running.result(1, 1, true, null);
        assertEquals(List.of(new Effect.Cleared(), new Effect.Report(1, true, null)), ok.effects(),
                "cleared before it is reported");
        assertFalse(ok.plan().armed());
        assertEquals(List.of(), ok.plan().timer(1, Timer.DEADLINE).effects(), "the deadline does nothing after success");
    }

    @Test
    void aFailedFirstProbeAnnouncesTheSecondAtTheDeadlineOnce() {
        ProbePlan running = armed(3000).plan().timer(1, Timer.FIRST).plan();
        Step failed = running.result(1, 1, false, "429 again");
        assertEquals(List.of(new Effect.Report(1, false, "429 again"), new Effect.Announce(2, NOW + 3000)),
                failed.effects());
        Step second = failed.plan().timer(1, Timer.DEADLINE);
        assertEquals(List.of(new Effect.Launch(2)), second.effects(), "announced once only");
        Step last = second.plan().result(1, 2, false, "still 429");
        assertEquals(List.of(new Effect.Report(2, false, "still 429")), last.effects());
        assertFalse(last.plan().armed(), "at most two probes per plan");
        assertEquals(List.of(), last.plan().timer(1, Timer.FIRST).effects());
    }

    @Test
    void theDeadlineCutsOffAProbeOneStillInFlightNeverTwoAtOnce() {
        ProbePlan running = armed(3000).plan().timer(1, Timer.FIRST).plan();
        Step deadline = running.timer(1, Timer.DEADLINE);
        assertEquals(List.of(new Effect.Abort(1), new Effect.Announce(2, NOW + 3000), new Effect.Launch(2)),
                deadline.effects());
        assertEquals(2, deadline.plan().inFlight());
        assertEquals(List.of(), deadline.plan().result(1, 1, true, null).effects(), "the cut-off probe's late answer");
        assertEquals(List.of(), deadline.plan().timer(1, Timer.FIRST).effects(), "a late first timer starts nothing");
        assertEquals(List.of(), deadline.plan().timer(1, Timer.DEADLINE).effects(), "nor does a second deadline");
    }

    @Test
    void aFirstTimerWhileAProbeRunsStartsNoOther() {
        ProbePlan running = armed(3000).plan().timer(1, Timer.FIRST).plan();
        assertEquals(List.of(), running.timer(1, Timer.FIRST).effects());
    }

    @Test
    void aNewPlanSupersedesTheOldOneAndItsTimersAndResults() {
        ProbePlan old = armed(3000).plan().timer(1, Timer.FIRST).plan();
        Step fresh = old.arm("p/n", 1000, NOW + 500);
        assertEquals(List.of(new Effect.Abort(1), new Effect.Announce(1, NOW + 1000)), fresh.effects());
        assertEquals("p/n", fresh.plan().selector());
        assertEquals(2, fresh.plan().generation());
        assertEquals(List.of(), fresh.plan().timer(1, Timer.FIRST).effects(), "the old plan's timer");
        assertEquals(List.of(), fresh.plan().result(1, 1, true, null).effects(), "the old plan's probe");
        assertEquals(List.of(new Effect.Launch(1)), fresh.plan().timer(2, Timer.FIRST).effects());
    }

    @Test
    void aCancelledPlanDoesNothingMoreAndAbortsItsProbe() {
        ProbePlan running = armed(3000).plan().timer(1, Timer.FIRST).plan();
        Step cancelled = running.cancel();
        assertEquals(List.of(new Effect.Abort(1)), cancelled.effects());
        assertFalse(cancelled.plan().armed());
        for (long gen : List.of(1L, 2L)) {
            assertEquals(List.of(), cancelled.plan().timer(gen, Timer.FIRST).effects());
            assertEquals(List.of(), cancelled.plan().timer(gen, Timer.DEADLINE).effects());
            assertEquals(List.of(), cancelled.plan().result(gen, 1, true, null).effects());
        }
        assertEquals(List.of(), armed(3000).plan().cancel().effects(), "nothing in flight: nothing to abort");
    }

    @Test
    void aZeroHintMakesBothProbesDueAtOnceStillOneAtATime() {
        Step step = armed(0);
        assertEquals(List.of(new Effect.Announce(1, NOW)), step.effects());
        Step first = step.plan().timer(1, Timer.FIRST);
        Step deadline = first.plan().timer(1, Timer.DEADLINE);
        assertEquals(List.of(new Effect.Abort(1), new Effect.Announce(2, NOW), new Effect.Launch(2)),
                deadline.effects());
    }
}
