package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.fallback.RevertRule.Circuit;
import dev.agentd.server.fallback.RevertRule.Decision;
import dev.agentd.server.fallback.RevertRule.Facts;
import dev.agentd.server.fallback.RevertRule.Revert;
import dev.agentd.server.fallback.RevertRule.RevertAtOnce;
import dev.agentd.server.fallback.RevertRule.Stay;
import dev.agentd.server.fallback.RevertRule.StayReason;
import dev.agentd.server.recovery.LimitScope;
import dev.agentd.server.recovery.SwitchReason;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The fallback design §5.3: pins, and whether an episode returns to its original model. */
class RevertRuleTest {
    private static final long NOW = 100_000;
    private static final Pins REFUSAL = new Pins(true, false);
    private static final Pins BILLING = new Pins(false, true);

    private static Facts facts(boolean active, Pins pins, boolean originalUsable, boolean currentUnusable, long coolingUntil,
            Circuit circuit) {
        return new Facts(active, pins, originalUsable, currentUnusable, coolingUntil, circuit);
    }

    static Stream<Arguments> table() {
        RevertPolicy expiry = RevertPolicy.COOLDOWN_EXPIRY;
        RevertPolicy never = RevertPolicy.NEVER;
        return Stream.of(
                Arguments.of(facts(false, Pins.NONE, true, false, 0, Circuit.NONE), expiry, new Stay(StayReason.NO_EPISODE)),
                Arguments.of(facts(true, REFUSAL, true, true, 0, Circuit.NONE), expiry, new Stay(StayReason.PINNED)),
                Arguments.of(facts(true, BILLING, true, false, 0, Circuit.CLOSED), never, new Stay(StayReason.PINNED)),
                Arguments.of(facts(true, Pins.NONE, false, true, 0, Circuit.NONE), expiry,
                        new Stay(StayReason.ORIGINAL_UNUSABLE)),
                // a stranded fallback goes back whatever the policy and the original's cooldown
                Arguments.of(facts(true, Pins.NONE, true, true, NOW + 1, Circuit.NONE), never, new RevertAtOnce()),
                Arguments.of(facts(true, Pins.NONE, true, true, NOW + 1, Circuit.OPEN), expiry, new RevertAtOnce()),
                Arguments.of(facts(true, Pins.NONE, true, false, 0, Circuit.NONE), never, new Stay(StayReason.POLICY_NEVER)),
                Arguments.of(facts(true, Pins.NONE, true, false, NOW + 1, Circuit.NONE), expiry,
                        new Stay(StayReason.COOLING)),
                Arguments.of(facts(true, Pins.NONE, true, false, NOW, Circuit.NONE), expiry, new Revert(false)),
                Arguments.of(facts(true, Pins.NONE, true, false, 0, Circuit.NONE), expiry, new Revert(false)),
                // when the breaker has a record for the original, the circuit decides, not the cooldown
                Arguments.of(facts(true, Pins.NONE, true, false, NOW + 1, Circuit.CLOSED), expiry, new Revert(false)),
                Arguments.of(facts(true, Pins.NONE, true, false, NOW + 1, Circuit.HALF_OPEN), expiry, new Revert(true)),
                Arguments.of(facts(true, Pins.NONE, true, false, 0, Circuit.OPEN), expiry, new Stay(StayReason.CIRCUIT_OPEN)));
    }

    @ParameterizedTest(name = "[{index}] {0} {1} -> {2}")
    @MethodSource("table")
    void decide(Facts facts, RevertPolicy policy, Decision expected) {
        assertEquals(expected, RevertRule.decide(facts, policy, NOW));
    }

    @Test
    void revertAtOnceNamesItsCause() {
        assertEquals("fallback-unusable", new RevertAtOnce().cause());
    }

    @ParameterizedTest(name = "current {0}, applied {1}, original {2} -> {3}")
    @CsvSource({
        "low,    low,  high,   high",   // untouched since the switch: the original level comes back
        "medium, low,  high,   medium", // the user changed it: their choice stays
        "medium, ,     high,   medium", // manual change noted (lastApplied forgotten)
        "low,    low,  ,       low",
        ",       ,     ,       off",
    })
    void thinkingOnRevert(String current, String applied, String original, String expected) {
        assertEquals(level(expected), RevertRule.thinkingOnRevert(level(current), level(applied), level(original)));
    }

    private static ThinkingLevel level(String text) {
        return text == null ? null : ThinkingLevel.parse(text).orElseThrow();
    }

    @ParameterizedTest(name = "{0} from {2} (original {3}, limit {1}) -> refusal {4}, billing {5}")
    @CsvSource({
        "REFUSAL,    ,        anthropic/claude-opus-4-5, anthropic/claude-opus-4-5, true,  false",
        "TRANSIENT,  ,        anthropic/claude-opus-4-5, anthropic/claude-opus-4-5, false, false",
        "HARD_ERROR, ACCOUNT, anthropic/claude-opus-4-5, anthropic/claude-opus-4-5, false, false",
        "BILLING,    ,        anthropic/claude-opus-4-5, anthropic/claude-opus-4-5, false, true",
        // billing on a fallback of the original's account, account-wide: the original is spent too
        "BILLING,    ACCOUNT, anthropic/claude-sonnet-4-5, anthropic/claude-opus-4-5, false, true",
        "BILLING,    MODEL,   anthropic/claude-sonnet-4-5, anthropic/claude-opus-4-5, false, false",
        // billing on another account's fallback does not pin
        "BILLING,    ACCOUNT, openai/gpt-5,              anthropic/claude-opus-4-5, false, false",
    })
    void pinsAfterASwitch(SwitchReason reason, LimitScope limit, String from, String original, boolean refusal,
            boolean billing) {
        assertEquals(new Pins(refusal, billing), Pins.NONE.afterSwitch(reason, limit, from, original));
    }

    @Test
    void pinsAccumulateAndOnlyRefusalIsReleasedByCompaction() {
        Pins both = Pins.NONE.afterSwitch(SwitchReason.REFUSAL, null, "a/x", "a/x")
                .afterSwitch(SwitchReason.BILLING, null, "a/x", "a/x");
        assertEquals(new Pins(true, true), both);
        assertEquals("billing", both.reason());
        assertEquals(BILLING, both.afterCompaction());
        assertEquals(Pins.NONE, REFUSAL.afterCompaction());
        assertEquals("refusal", REFUSAL.reason());
        assertEquals(null, Pins.NONE.reason());
        assertEquals(true, BILLING.afterCompaction().afterCompaction().pinned());
    }
}
