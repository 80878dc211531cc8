package dev.agentd.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The breaker arithmetic of {@link CircuitRecord} on fake numbers (senpi §5.3's examples among them). */
class CircuitRecordTest {
    private static final CircuitTimings SHORT = new CircuitTimings(1000, 3000, 500);
    private static final CircuitTimings LONG = new CircuitTimings(1000, 1_800_000, 500);

    /** Opens {@code opens} times in a row at {@code now}, then once more with {@code retryAfter} (-1 = none). */
    @ParameterizedTest(name = "C={0} M={1} opens={2} now={3} ra={4} → openUntil {5}")
    @CsvSource({
        // doubling, capped at M: 1000, 2000, 3000, 3000
        "1000, 3000, 0, 0, -1, 1000",
        "1000, 3000, 1, 0, -1, 2000",
        "1000, 3000, 2, 0, -1, 3000",
        "1000, 3000, 3, 0, -1, 3000",
        "1000, 3000, 40, 0, -1, 3000",       // no overflow however often it opened
        // Retry-After lengthens the wait: now=100, RA=600000 → 600100 under a 30 min cap ...
        "1000, 1800000, 0, 100, 600000, 600100",
        // ... but never past now + M
        "1000, 3000, 0, 100, 600000, 3100",
        // a Retry-After shorter than the cooldown changes nothing
        "1000, 3000, 0, 100, 10, 1100",
        // zero and negative hints are no hint
        "1000, 3000, 1, 100, 0, 2100",
    })
    void openArithmetic(long c, long m, int opens, long now, long retryAfter, long openUntil) {
        CircuitTimings timings = new CircuitTimings(c, m, 500);
        CircuitRecord record = CircuitRecord.NONE;
        for (int i = 0; i < opens; i++) {
            record = record.opened(now, OptionalLong.empty(), timings);
        }
        OptionalLong hint = retryAfter < 0 ? OptionalLong.empty() : OptionalLong.of(retryAfter);
        CircuitRecord opened = record.opened(now, hint, timings);
        assertEquals(openUntil, opened.openUntil());
        assertEquals(opens + 1, opened.consecutiveOpens());
    }

    @Test
    void anOutstandingRetryFloorSurvivesALaterHintlessFailure() {
        CircuitRecord first = CircuitRecord.NONE.opened(100, OptionalLong.of(600_000), LONG);
        CircuitRecord second = first.opened(200, OptionalLong.empty(), LONG);
        assertEquals(600_100, second.openUntil());
        assertEquals(600_100, second.retryFloorUntil());
        // once the floor has passed it no longer counts
        CircuitRecord later = second.opened(700_000, OptionalLong.empty(), LONG);
        assertEquals(700_000 + 4000, later.openUntil());
    }

    @Test
    void admitIsOpenWhileCoolingThenGrantsOneLeaseToOneOwner() {
        CircuitRecord open = CircuitRecord.NONE.opened(0, OptionalLong.empty(), SHORT); // until 1000
        assertEquals(new Admission.Open(600), open.admit(400, "a", 1, SHORT).admission());
        assertFalse(open.grants(999));
        assertTrue(open.grants(1000));

        CircuitRecord.Admitted a = open.admit(1000, "a", 7, SHORT);
        assertEquals(new Admission.Probe(new ProbeToken("a", 7)), a.admission());
        assertEquals(1500, a.record().lease().orElseThrow().expiresAt());
        // the same owner gets the same token (and the lease is not extended) ...
        CircuitRecord.Admitted again = a.record().admit(1200, "a", 8, SHORT);
        assertEquals(a.admission(), again.admission());
        assertSame(a.record(), again.record());
        assertFalse(a.record().grants(1200));
        // ... another owner is kept out for the lease's remaining time
        assertEquals(new Admission.Open(300), a.record().admit(1200, "b", 8, SHORT).admission());
    }

    @Test
    void aLeaseNotReleasedExpiresAndTheNextOwnerGetsANewGeneration() {
        CircuitRecord leased = CircuitRecord.NONE.opened(0, OptionalLong.empty(), SHORT)
                .admit(1000, "crashed", 1, SHORT).record();
        assertTrue(leased.grants(1500));
        CircuitRecord.Admitted next = leased.admit(1500, "b", 2, SHORT);
        assertEquals(new Admission.Probe(new ProbeToken("b", 2)), next.admission());
    }

    @Test
    void releaseEndsTheLeaseOnlyForTheMatchingOwnerAndGeneration() {
        CircuitRecord leased = CircuitRecord.NONE.opened(0, OptionalLong.empty(), SHORT)
                .admit(1000, "a", 5, SHORT).record();
        assertSame(leased, leased.released(new ProbeToken("a", 4)), "a stale generation");
        assertSame(leased, leased.released(new ProbeToken("b", 5)), "another owner");
        CircuitRecord released = leased.released(new ProbeToken("a", 5));
        assertTrue(released.lease().isEmpty());
        assertEquals(leased.openUntil(), released.openUntil());
        assertEquals(leased.consecutiveOpens(), released.consecutiveOpens());
    }

    @Test
    void reopeningEndsTheLeaseAndDoubles() {
        CircuitRecord leased = CircuitRecord.NONE.opened(0, OptionalLong.empty(), SHORT)
                .admit(1000, "a", 1, SHORT).record();
        CircuitRecord reopened = leased.opened(1100, OptionalLong.empty(), SHORT);
        assertTrue(reopened.lease().isEmpty());
        assertEquals(1100 + 2000, reopened.openUntil());
    }

    @ParameterizedTest(name = "now={0} leased={1} → idle {2}")
    @CsvSource({
        "3999, false, false",  // openUntil 1000 + M 3000 not reached
        "4000, false, true",
        "4000, true, false",   // a live lease keeps the record
        "5000, true, true",    // ... until it expires (lease to 4200 granted at 3700)
    })
    void sweepDropsRecordsIdleForTheMaximum(long now, boolean leased, boolean idle) {
        CircuitRecord record = CircuitRecord.NONE.opened(0, OptionalLong.empty(), SHORT);
        if (leased) {
            record = record.admit(3700, "a", 1, SHORT).record();
        }
        assertEquals(idle, record.idle(now, SHORT));
    }

    @Test
    void viewShowsOpenThenHalfOpenWithTheLeaseTimeLeft() {
        CircuitRecord open = CircuitRecord.NONE.opened(0, OptionalLong.empty(), SHORT);
        assertEquals(new CircuitView("p/m", CircuitView.State.OPEN, 700), open.view("p/m", 300));
        assertEquals(new CircuitView("p/m", CircuitView.State.HALF_OPEN, 0), open.view("p/m", 1000));
        CircuitRecord leased = open.admit(1000, "a", 1, SHORT).record();
        assertEquals(new CircuitView("p/m", CircuitView.State.HALF_OPEN, 400), leased.view("p/m", 1100));
    }

    @Test
    void clampBoundsOpenUntilFloorAndLeaseByWhatAgentdCouldHaveWritten() {
        long now = 1_000_000;
        CircuitRecord hostile = new CircuitRecord(Long.MAX_VALUE, Long.MAX_VALUE, 7,
                java.util.Optional.of(new CircuitRecord.Lease("other", 3, Long.MAX_VALUE)));
        CircuitRecord clamped = hostile.clamped(now, SHORT);
        assertEquals(now + 3000, clamped.openUntil());
        assertEquals(now + 3000, clamped.retryFloorUntil());
        assertEquals(7, clamped.consecutiveOpens());
        assertEquals(new CircuitRecord.Lease("other", 3, now + 500), clamped.lease().orElseThrow());
        // the clamp written back does not move on: later reads see it run down
        assertSame(clamped, clamped.clamped(now + 2000, SHORT));
        assertEquals(new Admission.Open(1000), clamped.admit(now + 2000, "a", 9, SHORT).admission());
        assertTrue(clamped.grants(now + 3000), "half-open once the max cooldown has passed");
    }

    @Test
    void clampLeavesRecordsAgentdWroteAlone() {
        CircuitRecord open = CircuitRecord.NONE.opened(0, OptionalLong.of(2500), SHORT);
        assertSame(open, open.clamped(0, SHORT));
        CircuitRecord leased = open.admit(3000, "a", 1, SHORT).record();
        assertSame(leased, leased.clamped(3000, SHORT));
        // a lower maximum configured since: the record obeys the new one
        assertEquals(1000, open.clamped(0, new CircuitTimings(1000, 1000, 500)).openUntil());
    }
}
