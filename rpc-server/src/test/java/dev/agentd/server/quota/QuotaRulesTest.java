package dev.agentd.server.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.response.RateLimits;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class QuotaRulesTest {

    @Test
    void eachThresholdIsAnnouncedOnceOnTheWayUp() {
        assertEquals(new QuotaRules.Step(0, null), QuotaRules.step(0, 0.49));
        assertEquals(new QuotaRules.Step(1, 0.5), QuotaRules.step(0, 0.5));
        assertEquals(new QuotaRules.Step(1, null), QuotaRules.step(1, 0.6), "50 % already announced");
        assertEquals(new QuotaRules.Step(2, 0.8), QuotaRules.step(1, 0.8));
        assertEquals(new QuotaRules.Step(3, 0.95), QuotaRules.step(2, 0.97));
        assertEquals(new QuotaRules.Step(3, null), QuotaRules.step(3, 1.0));
    }

    @Test
    void aJumpPastSeveralThresholdsIsOneEventAtTheHighest() {
        assertEquals(new QuotaRules.Step(2, 0.8), QuotaRules.step(0, 0.9));
        assertEquals(new QuotaRules.Step(3, 0.95), QuotaRules.step(0, 1.0));
    }

    @Test
    void aResetReArmsButRefillingByAFewPercentDoesNot() {
        assertEquals(new QuotaRules.Step(2, null), QuotaRules.step(2, 0.78), "within the margin of 80 %");
        assertEquals(new QuotaRules.Step(2, null), QuotaRules.step(2, 0.76));
        assertEquals(new QuotaRules.Step(1, null), QuotaRules.step(2, 0.74), "80 % re-armed, 50 % still announced");
        assertEquals(new QuotaRules.Step(0, null), QuotaRules.step(3, 0.02), "a window reset re-arms all");
        assertEquals(new QuotaRules.Step(1, 0.5), QuotaRules.step(0, 0.55), "and the next climb announces again");
    }

    @Test
    void theCurrentUtilizationIgnoresWindowsThatHaveReset() {
        RateLimits limits = new RateLimits(null, new RateLimits.Window(100L, 40L, 5_000L, 0.6, null), null, null,
                null, Map.of("5h", new RateLimits.Window(null, null, 2_000L, 0.97, "allowed"),
                        "7d", new RateLimits.Window(null, null, null, 0.3, null)), null, 0.97, 0);
        assertEquals(OptionalDouble.of(0.97), QuotaRules.current(limits, 1_000));
        assertEquals(OptionalDouble.of(0.6), QuotaRules.current(limits, 2_000), "the 5h window reset at 2000");
        assertEquals(OptionalDouble.of(0.3), QuotaRules.current(limits, 9_000), "no reset time: still current");
        assertEquals(OptionalDouble.empty(), QuotaRules.current(null, 0));
        assertEquals(OptionalDouble.empty(), QuotaRules.current(new RateLimits(null, null, null, null, null, null,
                "allowed", null, 0), 0));
    }
}
