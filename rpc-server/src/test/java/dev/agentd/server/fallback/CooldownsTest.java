package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fallback design §5.4: per-session cooldowns on the caller's monotonic time. */
class CooldownsTest {
    /** A random source that always returns {@code value} (the jitter fraction). */
    private static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    @ParameterizedTest(name = "{0}, jitter fraction {1} -> {2} ms")
    @CsvSource({
        "USAGE_BILLING_QUOTA, 0.9, 1800000",
        "RATE_LIMIT,          0.9, 30000",
        "OVERLOADED,          0.0, 45000",
        "OVERLOADED,          0.5, 60000",
        "OVERLOADED,          0.99999, 75000",
        "SERVER_5XX,          0.9, 20000",
        "TRANSPORT,           0.9, 60000",
        "OTHER,               0.9, 300000",
    })
    void durationsByCause(CooldownCause cause, double jitter, long expected) {
        Cooldowns cooldowns = new Cooldowns(fixed(jitter));
        assertEquals(expected, cooldowns.note("openai/gpt-5", cause, 0, 1_000));
        assertEquals(expected, cooldowns.remainingMs("openai/gpt-5", 1_000));
        assertTrue(cooldowns.isCooling("openai/gpt-5", 1_000 + expected - 1));
        assertFalse(cooldowns.isCooling("openai/gpt-5", 1_000 + expected));
    }

    @Test
    void aRetryAfterHintReplacesTheDuration() {
        Cooldowns cooldowns = new Cooldowns(fixed(0.5));
        assertEquals(7_000, cooldowns.note("openai/gpt-5", CooldownCause.USAGE_BILLING_QUOTA, 7_000, 0));
        assertFalse(cooldowns.isCooling("openai/gpt-5", 7_000));
        assertEquals(30_000, cooldowns.note("openai/gpt-5", CooldownCause.RATE_LIMIT, -5, 0));
    }

    @Test
    void keysIgnoreCaseAndALaterNoteReplacesAnEarlierOne() {
        Cooldowns cooldowns = new Cooldowns(fixed(0));
        cooldowns.note("OpenAI/GPT-5", CooldownCause.OTHER, 0, 0);
        assertTrue(cooldowns.isCooling("openai/gpt-5", 1));
        cooldowns.note("openai/gpt-5", CooldownCause.SERVER_5XX, 0, 0);
        assertEquals(20_000, cooldowns.remainingMs("OPENAI/gpt-5", 0));
    }

    @Test
    void clearAndSnapshot() {
        Cooldowns cooldowns = new Cooldowns(fixed(0));
        cooldowns.note("a/one", CooldownCause.SERVER_5XX, 5_000, 0);
        cooldowns.note("b/two", CooldownCause.TRANSPORT, 0, 0);
        cooldowns.note("c/three", CooldownCause.RATE_LIMIT, 0, 0);
        assertEquals(List.of(new Cooldowns.Entry("b/two", 50_000), new Cooldowns.Entry("c/three", 20_000)),
                cooldowns.snapshot(10_000), "expired a/one is gone, longest wait first");
        cooldowns.clear("B/TWO");
        assertEquals(List.of(new Cooldowns.Entry("c/three", 20_000)), cooldowns.snapshot(10_000));
        cooldowns.clear("c/three");
        assertEquals(List.of(), cooldowns.snapshot(10_000));
    }

    @Test
    void aHugeHintSaturatesInsteadOfOverflowing() {
        Cooldowns cooldowns = new Cooldowns(fixed(0));
        cooldowns.note("a/one", CooldownCause.OTHER, Long.MAX_VALUE, 5);
        assertTrue(cooldowns.isCooling("a/one", Long.MAX_VALUE - 1));
    }
}
