package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.server.recovery.HintTiers.InTurn;
import dev.agentd.server.recovery.HintTiers.Limits;
import dev.agentd.server.recovery.HintTiers.Tier;
import dev.agentd.server.recovery.RateLimitWait.Phase;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** FALLBACK §4's 429 arithmetic on fake numbers: tiers at each boundary, the tier-1 wait sequence, degrading. */
class HintTiersTest {
    /** cap 100, probe-back boundary 1000. */
    private static final Limits LIMITS = new Limits(100, 1000);

    static Stream<Arguments> tiers() {
        return Stream.of(
                Arguments.of(null, Tier.NO_HINT),
                Arguments.of(0L, Tier.IN_TURN),
                Arguments.of(99L, Tier.IN_TURN),
                Arguments.of(100L, Tier.IN_TURN),
                Arguments.of(101L, Tier.PROBE_BACK),
                Arguments.of(999L, Tier.PROBE_BACK),
                Arguments.of(1000L, Tier.FALLBACK_ONLY),
                Arguments.of(1001L, Tier.FALLBACK_ONLY));
    }

    @ParameterizedTest(name = "hint {0} → {1}")
    @MethodSource("tiers")
    void aHintPicksItsTierBelowAtAndAboveEachBoundary(Long hint, Tier tier) {
        assertEquals(tier, HintTiers.classify(hint, LIMITS));
    }

    static Stream<Arguments> firstWaits() {
        // hint, floor, now → delay, deadline, cumulative, demote
        return Stream.of(
                Arguments.of(80L, 1L, 1000L, 80L, 1080L, 80L, false), // the whole hint
                Arguments.of(81L, 1L, 1000L, 81L, 1081L, 81L, false),
                Arguments.of(80L, 90L, 1000L, 90L, 1080L, 90L, false), // the floor wins
                Arguments.of(0L, 5L, 1000L, 5L, 1000L, 5L, false), // an explicit 0 is a hint
                Arguments.of(100L, 1L, 1000L, 100L, 1100L, 100L, false), // equal to the cap: stays
                Arguments.of(100L, 101L, 1000L, 101L, 1100L, 101L, true)); // above the cap: demotes
    }

    @ParameterizedTest(name = "hint {0}, floor {1}")
    @MethodSource("firstWaits")
    void theFirstHintedWaitIsTheWholeHintOrTheFloor(long hint, long floor, long now, long delay, long deadline,
            long cumulative, boolean demote) {
        InTurn wait = HintTiers.inTurn(hint, RateLimitWait.NONE, floor, 100, now);
        assertEquals(new InTurn(delay, new RateLimitWait(Phase.DONE, deadline, cumulative), demote, hint), wait);
    }

    @Test
    void everyHintedWaitIsTheHintNeverLessAndAnUnhintedOneWaitsOutTheDeadline() {
        // cap 1000 (never passed here), floors 1, 2, 4, 8 for attempts 1..4
        InTurn first = HintTiers.inTurn(80L, RateLimitWait.NONE, 1, 1000, 1000);
        assertEquals(80, first.delayMs());
        // the second 429 names 30 ms: a fresh hint moves the deadline and is waited whole
        InTurn second = HintTiers.inTurn(30L, first.next(), 2, 1000, 1080);
        assertEquals(new InTurn(30, new RateLimitWait(Phase.DONE, 1110, 110), false, 30), second);
        // without a fresh hint the last deadline holds: what is left of it, at least the floor
        InTurn unhinted = HintTiers.inTurn(null, first.next(), 2, 1000, 1050);
        assertEquals(new InTurn(30, new RateLimitWait(Phase.DONE, 1080, 110), false, 30), unhinted);
        assertEquals(2, HintTiers.inTurn(null, first.next(), 2, 1000, 2000).delayMs(), "past the deadline: the floor");
        assertEquals(8, HintTiers.inTurn(5L, second.next(), 8, 1000, 1200).delayMs(), "the floor wins");
        assertEquals(8, HintTiers.inTurn(null, RateLimitWait.NONE, 8, 1000, 1100).delayMs(), "no hint: the floor");
    }

    static Stream<Arguments> secondWaitsAroundTheCap() {
        // first hint 40 at t=1000 (waits 40); second hint 40 at t=1040: cumulative 80
        return Stream.of(Arguments.of(79L, true), Arguments.of(80L, false), Arguments.of(81L, false));
    }

    @ParameterizedTest(name = "cap {0} → demote {1}")
    @MethodSource("secondWaitsAroundTheCap")
    void theSecondWaitDemotesOnlyWhenTheCumulativeWaitPassesTheCap(long cap, boolean demote) {
        InTurn first = HintTiers.inTurn(40L, RateLimitWait.NONE, 1, cap, 1000);
        InTurn second = HintTiers.inTurn(40L, first.next(), 2, cap, 1040);
        assertEquals(40, second.delayMs());
        assertEquals(80, second.next().cumulativeMs());
        assertEquals(demote, second.demote());
        assertEquals(40, second.remainingMs(), "the cooldown of a demoted model is the hinted window");
    }

    @Test
    void withoutAFallbackTheSameModelWaitsNeverLessThanTheHintTier2UpToTheCap() {
        assertEquals(70, HintTiers.withoutFallback(Tier.IN_TURN, 70L, 4, 100));
        assertEquals(4, HintTiers.withoutFallback(Tier.IN_TURN, 0L, 4, 100));
        assertEquals(4, HintTiers.withoutFallback(Tier.NO_HINT, null, 4, 100));
        assertEquals(100, HintTiers.withoutFallback(Tier.PROBE_BACK, 500L, 4, 100), "min(hint, cap)");
        assertEquals(100, HintTiers.withoutFallback(Tier.PROBE_BACK, 101L, 4, 100), "just above the cap");
        assertEquals(200, HintTiers.withoutFallback(Tier.PROBE_BACK, 500L, 200, 100), "the floor wins");
    }

    @Test
    void theTier3MessageNamesTheHintInWholeSecondsRoundedUp() {
        assertEquals("Provider requested a 3600s wait before retrying and no usable fallback model is available. "
                + "429 slow down", HintTiers.noFallbackMessage(3_600_000, "429 slow down"));
        assertEquals("Provider requested a 2s wait before retrying and no usable fallback model is available. e",
                HintTiers.noFallbackMessage(1001, "e"));
    }

    @Test
    void hugeHintsSaturateInsteadOfOverflowing() {
        InTurn wait = HintTiers.inTurn(Long.MAX_VALUE, RateLimitWait.NONE, 1, 100, 1000);
        assertEquals(Long.MAX_VALUE, wait.next().deadlineMs());
        assertEquals(true, wait.demote());
    }
}
