package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.recovery.SwitchReason;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hints set the wait (SPEC §5.5) and the 429 tiers (FALLBACK §4) as the end-of-run decision
 * takes them, on fake numbers: base 10, maxRetries 3, maxRetryDelayMs 500, cap 100, probe-back 1000.
 */
class RateLimitPolicyTest {
    private static final RecoveryPolicy POLICY = new RecoveryPolicy();
    private static final RetryConfig CONFIG = new RetryConfig(true, 3, 10, 500);
    private static final HintTiers.Limits LIMITS = new HintTiers.Limits(100, 1000);
    private static final FallbackView RUNG = Views.view(true, "p/m", true, true, false);
    private static final FallbackView SPENT = Views.view(true, "p/m", false, false, true);
    private static final RecoveryAction FINISH = new RecoveryAction.Finish();
    private static final String RATE = "429 rate_limit_error";
    private static final Classification RATE_LIMITED = Classification.of(ErrorClass.RATE_LIMITED);
    private static final long NOW = 10_000;

    static AgentMessage.Assistant error(String text, int status, String type, Long hint) {
        return new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO, StopReason.ERROR, text, 0, status,
                type, hint, null);
    }

    private static AgentMessage.Assistant rateLimited(Long hint) {
        return error(RATE, 429, "rate_limit_error", hint);
    }

    private static RecoveryAction decide(AgentMessage.Assistant last, int attempt, FallbackView view,
            RateLimitWait wait) {
        return POLICY.decide(Facts.after(last, CONFIG).attempt(attempt).fallback(view).rateLimit(wait, LIMITS, NOW)
                .build());
    }

    private static RecoveryAction switched(int attempt, Long cooldown, boolean probeBack) {
        return new RecoveryAction.SwitchModel(SwitchReason.TRANSIENT, RATE_LIMITED, null, attempt, RATE, cooldown,
                probeBack, Views.RUNG);
    }

    private static RateLimitWait waited(long deadline, long cumulative) {
        return new RateLimitWait(RateLimitWait.Phase.DONE, deadline, cumulative);
    }

    static Stream<Arguments> table() {
        RateLimitWait none = RateLimitWait.NONE;
        return Stream.of(
                // --- with a rung to switch to
                Arguments.of("no hint switches at once", rateLimited(null), 0, RUNG, none, switched(1, null, false)),
                Arguments.of("tier 1 waits the whole hint", rateLimited(80L), 0, RUNG, none,
                        new RecoveryAction.Retry(1, 80, RATE, waited(NOW + 80, 80))),
                Arguments.of("tier 1 at the cap still waits", rateLimited(100L), 0, RUNG, none,
                        new RecoveryAction.Retry(1, 100, RATE, waited(NOW + 100, 100))),
                Arguments.of("tier 1 second 429 waits its hint", rateLimited(30L), 1, RUNG,
                        waited(NOW, 50), new RecoveryAction.Retry(2, 30, RATE, waited(NOW + 30, 80))),
                Arguments.of("tier 1 never waits less than the floor", rateLimited(10L), 1, RUNG,
                        waited(NOW, 50), new RecoveryAction.Retry(2, 20, RATE, waited(NOW + 10, 70))),
                Arguments.of("tier 1 past the hinted wait cap switches, cooling for the hinted window",
                        rateLimited(90L), 1, RUNG, waited(NOW, 50), switched(1, 90L, false)),
                Arguments.of("tier 1 past the budget switches", rateLimited(20L), 3, RUNG, none,
                        switched(1, 20L, false)),
                Arguments.of("tier 2 just above the cap switches and probes back", rateLimited(101L), 0, RUNG, none,
                        switched(1, 101L, true)),
                Arguments.of("tier 2 below the boundary", rateLimited(999L), 2, RUNG, none, switched(1, 999L, true)),
                Arguments.of("tier 3 at the boundary switches without a probe", rateLimited(1000L), 0, RUNG, none,
                        switched(1, 1000L, false)),
                // --- without one
                Arguments.of("no rung, no hint: exponential", rateLimited(null), 1, FallbackView.NONE, none,
                        new RecoveryAction.Retry(2, 20, RATE)),
                Arguments.of("no rung, tier 1: the whole hint", rateLimited(70L), 0, FallbackView.NONE, none,
                        new RecoveryAction.Retry(1, 70, RATE)),
                Arguments.of("no rung, tier 1 hint below the floor: the floor", rateLimited(5L), 2, FallbackView.NONE,
                        none, new RecoveryAction.Retry(3, 40, RATE)),
                Arguments.of("no rung, tier 2: the hint up to the cap", rateLimited(600L), 0, FallbackView.NONE, none,
                        new RecoveryAction.Retry(1, 100, RATE)),
                Arguments.of("no rung, past the budget: give up", rateLimited(70L), 3, FallbackView.NONE, none,
                        new RecoveryAction.GiveUp(3, RATE, FINISH)),
                Arguments.of("no rung, tier 3: fail at once", rateLimited(1000L), 0, FallbackView.NONE, none,
                        new RecoveryAction.GiveUp(0, "Provider requested a 1s wait before retrying and no usable "
                                + "fallback model is available. " + RATE, FINISH)),
                Arguments.of("spent chain, tier 3: announced, then fail", rateLimited(1500L), 1, SPENT, none,
                        new RecoveryAction.FallbackExhausted("p/m", RATE, RATE_LIMITED, 1500L,
                                new RecoveryAction.GiveUp(1, "Provider requested a 2s wait before retrying and no "
                                        + "usable fallback model is available. " + RATE, FINISH))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void aRateLimitIsRoutedByItsHintsTier(String name, AgentMessage.Assistant last, int attempt, FallbackView view,
            RateLimitWait wait, RecoveryAction expected) {
        assertEquals(expected, decide(last, attempt, view, wait), name);
    }

    static Stream<Arguments> plainHints() {
        return Stream.of(
                Arguments.of("a hint sets the wait", 70L, new RecoveryAction.Retry(1, 70, "529 overloaded")),
                Arguments.of("a hint longer than the backoff", 400L, new RecoveryAction.Retry(1, 400, "529 overloaded")),
                Arguments.of("at the maximum", 500L, new RecoveryAction.Retry(1, 500, "529 overloaded")),
                Arguments.of("0 is no hint: the backoff", 0L, new RecoveryAction.Retry(1, 10, "529 overloaded")),
                Arguments.of("no hint: the backoff", null, new RecoveryAction.Retry(1, 10, "529 overloaded")),
                Arguments.of("above the maximum: the chain ends", 501L, new RecoveryAction.GiveUp(0,
                        "Provider requested retry delay 501ms, exceeding configured maximum 500ms", FINISH)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("plainHints")
    void aNon429HintIsTheDelayUpToTheMaximum(String name, Long hint, RecoveryAction expected) {
        AgentMessage.Assistant overloaded = error("529 overloaded", 529, "overloaded_error", hint);
        assertEquals(expected, decide(overloaded, 0, FallbackView.NONE, RateLimitWait.NONE), name);
    }

    @Test
    void theTier1WaitStateSurvivesANon429Retry() {
        RateLimitWait wait = waited(NOW + 30, 40);
        RecoveryAction action = decide(error("529 overloaded", 529, "overloaded_error", null), 1, RUNG, wait);
        assertEquals(new RecoveryAction.Retry(2, 20, "529 overloaded", wait), action);
    }
}
