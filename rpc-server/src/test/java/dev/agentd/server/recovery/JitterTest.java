package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Storm control's jitter (issue 27): added to every wait, never subtracted, bounded by the ratio. */
class JitterTest {
    private static final RetryConfig TEN_PERCENT = new RetryConfig(true, 3, 2000, 60_000, 60_000, 0.1);

    @Test
    void jitterIsAddedNeverSubtractedAndBounded() {
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            long waited = TEN_PERCENT.jittered(2000, random.nextDouble());
            assertTrue(waited >= 2000 && waited < 2200, "waited " + waited);
        }
        assertEquals(2000, TEN_PERCENT.jittered(2000, 0));
        assertEquals(2199, TEN_PERCENT.jittered(2000, 0.9999));
        assertEquals(0, TEN_PERCENT.jittered(0, 0.5), "no wait stays no wait (the retry after a switch)");
        assertEquals(2000, new RetryConfig(true, 3, 2000, 60_000).jittered(2000, 0.5), "explicit configs: none");
        assertEquals(Long.MAX_VALUE, new RetryConfig(true, 3, 1, 1, 1, 1).jittered(Long.MAX_VALUE - 1, 0.9));
    }

    @Test
    void theAnnouncedDelayOfAHintedRetryIsTheJitteredWaitNeverBelowTheHint() {
        AgentMessage.Assistant overloaded = RateLimitPolicyTest.error("529 overloaded", 529, "overloaded_error", 3000L);
        RecoveryAction action = new RecoveryPolicy().decide(Facts.after(overloaded, TEN_PERCENT).jitter(0.5).build());
        assertEquals(3150, ((RecoveryAction.Retry) action).delayMs(), action.toString());
    }
}
