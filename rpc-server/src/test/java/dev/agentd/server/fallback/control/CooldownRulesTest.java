package dev.agentd.server.fallback.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.fallback.CooldownCause;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.LimitScope;
import dev.agentd.server.recovery.TransientKind;
import java.util.Locale;
import java.util.Random;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** FALLBACK §5.4: which cooldown a failure earns, and how long it lasts without a hint. */
class CooldownRulesTest {

    @ParameterizedTest(name = "{0} \"{1}\" → {2}")
    @CsvSource({
        "BILLING, credit balance too low, USAGE_BILLING_QUOTA",
        "QUOTA, quota exceeded, USAGE_BILLING_QUOTA",
        "USAGE_LIMIT, usage limit reached, USAGE_BILLING_QUOTA",
        "RATE_LIMITED, 429 too many requests, RATE_LIMIT",
        "TRANSIENT, 529 overloaded, OVERLOADED",
        "TRANSIENT, no capacity right now, OVERLOADED",
        "TRANSIENT, 502 bad gateway, SERVER_5XX",
        "TRANSIENT, internal error, SERVER_5XX",
        "TRANSIENT, Request timed out., TRANSPORT",
        "TRANSIENT, connection reset, TRANSPORT",
        "TRANSIENT, something odd, OTHER",
        "HARD, invalid request, OTHER",
    })
    void causeOfAFailure(ErrorClass errorClass, String message, CooldownCause expected) {
        TransientKind kind = TransientKind.of(null, null, message.toLowerCase(Locale.ROOT));
        assertEquals(expected, CooldownRules.of(new Classification(errorClass, null, kind)));
    }

    @Test
    void aNamedLimitOnAnyClassIsTheLongCooldown() {
        assertEquals(CooldownCause.USAGE_BILLING_QUOTA, CooldownRules.of(
                Classification.of(ErrorClass.CREDENTIAL_REJECTED, LimitScope.ACCOUNT)));
    }

    @Test
    void durationsWithoutAHint() {
        RandomGenerator random = new Random(7);
        assertEquals(30 * 60_000L, CooldownCause.USAGE_BILLING_QUOTA.durationMs(random));
        assertEquals(30_000L, CooldownCause.RATE_LIMIT.durationMs(random));
        assertEquals(20_000L, CooldownCause.SERVER_5XX.durationMs(random));
        assertEquals(60_000L, CooldownCause.TRANSPORT.durationMs(random));
        assertEquals(5 * 60_000L, CooldownCause.OTHER.durationMs(random));
        for (int i = 0; i < 100; i++) {
            long overloaded = CooldownCause.OVERLOADED.durationMs(random);
            assertTrue(overloaded >= 45_000 && overloaded <= 75_000, "45 s + 0–30 s jitter: " + overloaded);
        }
    }
}
