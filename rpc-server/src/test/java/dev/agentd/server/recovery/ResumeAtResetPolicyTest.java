package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Resume at reset (FALLBACK §11) as the end-of-run decision takes it, on fake numbers: base 10,
 * maxRetries 3, maxRetryDelayMs 500, 429 cap 100, probe-back 1000, resume up to 10 000.
 */
class ResumeAtResetPolicyTest {
    private static final RecoveryPolicy POLICY = new RecoveryPolicy();
    private static final RetryConfig CONFIG = new RetryConfig(true, 3, 10, 500);
    private static final HintTiers.Limits LIMITS = new HintTiers.Limits(100, 1000);
    private static final long MAX = 10_000;
    private static final FallbackView RUNG = Views.view(true, "p/m", true, true, false);
    private static final FallbackView SPENT = Views.view(true, "p/m", false, false, true);
    private static final RecoveryAction FINISH = new RecoveryAction.Finish();
    private static final String USAGE = "usage limit reached";
    private static final String RATE = "429 rate_limit_error";
    private static final String QUOTA = "429 project_spend_limit_exceeded";
    private static final Classification USAGE_CLASS = ErrorClassifier.classify(usage(5_000L), 200_000);

    private static AgentMessage.Assistant error(String text, int status, String type, Long hint) {
        return new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO, StopReason.ERROR, text, 0, status,
                type, hint, null);
    }

    private static AgentMessage.Assistant usage(Long hint) {
        return error(USAGE, 429, null, hint);
    }

    private static AgentMessage.Assistant rate(Long hint) {
        return error(RATE, 429, "rate_limit_error", hint);
    }

    private static AgentMessage.Assistant quota(Long hint) {
        return error(QUOTA, 429, null, hint);
    }

    private static RecoveryAction resume(int attempt, long wait, String reason, String error) {
        return new RecoveryAction.ResumeAtReset(attempt, wait, reason, error);
    }

    private static RecoveryAction decide(AgentMessage.Assistant last, int attempt, boolean otherFree,
            FallbackView view, long max) {
        return POLICY.decide(Facts.after(last, CONFIG).attempt(attempt).otherCredentialFree(otherFree).fallback(view)
                .rateLimit(RateLimitWait.NONE, LIMITS, 0).resumeAtResetMaxMs(max).build());
    }

    static Stream<Arguments> table() {
        FallbackView none = FallbackView.NONE;
        return Stream.of(
                // --- usage limits
                Arguments.of("usage limit, reset known, nothing else: resume at the reset", usage(5_000L), 0, false,
                        none, MAX, new RecoveryAction.BlockCredential(5_000L,
                                resume(1, 5_000, ResetWait.USAGE_LIMIT, USAGE))),
                Arguments.of("usage limit past the budget still resumes", usage(5_000L), 3, false, none, MAX,
                        new RecoveryAction.BlockCredential(5_000L, resume(4, 5_000, ResetWait.USAGE_LIMIT, USAGE))),
                Arguments.of("usage limit at the maximum resumes", usage(MAX), 0, false, none, MAX,
                        new RecoveryAction.BlockCredential(MAX, resume(1, MAX, ResetWait.USAGE_LIMIT, USAGE))),
                Arguments.of("usage limit beyond the maximum: as before (block, give up)", usage(MAX + 1), 0, false,
                        none, MAX, new RecoveryAction.BlockCredential(MAX + 1, new RecoveryAction.GiveUp(0,
                                "Provider requested retry delay 10001ms, exceeding configured maximum 500ms",
                                FINISH))),
                Arguments.of("usage limit, setting 0: as before", usage(5_000L), 0, false, none, 0L,
                        new RecoveryAction.BlockCredential(5_000L, new RecoveryAction.GiveUp(0,
                                "Provider requested retry delay 5000ms, exceeding configured maximum 500ms", FINISH))),
                Arguments.of("usage limit, no reset known: backoff as before", usage(null), 0, false, none, MAX,
                        new RecoveryAction.BlockCredential(null, new RecoveryAction.Retry(1, 10, USAGE))),
                Arguments.of("usage limit within maxRetryDelayMs: backoff retries first", usage(400L), 0, false,
                        none, MAX, new RecoveryAction.BlockCredential(400L, new RecoveryAction.Retry(1, 10, USAGE))),
                Arguments.of("usage limit within maxRetryDelayMs, retries spent: resume", usage(400L), 3, false,
                        none, MAX, new RecoveryAction.BlockCredential(400L, resume(4, 400, ResetWait.USAGE_LIMIT, USAGE))),
                Arguments.of("usage limit, another credential free: switch to it", usage(5_000L), 0, true, none,
                        MAX, new RecoveryAction.SwitchCredential(1, USAGE, 5_000L)),
                Arguments.of("usage limit, a rung left: fall back", usage(5_000L), 0, false, RUNG, MAX,
                        new RecoveryAction.BlockCredential(5_000L, new RecoveryAction.SwitchModel(SwitchReason.BILLING,
                                USAGE_CLASS, USAGE_CLASS.scope(), 1, USAGE, 5_000L,
                                false, Views.RUNG))),
                Arguments.of("usage limit, chain spent: exhausted, then resume", usage(5_000L), 0, false, SPENT, MAX,
                        new RecoveryAction.BlockCredential(5_000L, new RecoveryAction.FallbackExhausted("p/m", USAGE,
                                USAGE_CLASS, 5_000L,
                                resume(1, 5_000, ResetWait.USAGE_LIMIT, USAGE)))),
                // --- 429 beyond the hint tiers
                Arguments.of("tier-3 429 without a rung resumes at the hint", rate(5_000L), 0, false, none, MAX,
                        resume(1, 5_000, ResetWait.RATE_LIMITED, RATE)),
                Arguments.of("tier-3 429 beyond the maximum fails as before", rate(MAX + 1), 0, false, none, MAX,
                        new RecoveryAction.GiveUp(0, HintTiers.noFallbackMessage(MAX + 1, RATE), FINISH)),
                Arguments.of("tier-3 429 with a rung falls back", rate(5_000L), 0, false, RUNG, MAX,
                        new RecoveryAction.SwitchModel(SwitchReason.TRANSIENT,
                                Classification.of(ErrorClass.RATE_LIMITED), null, 1, RATE, 5_000L, false, Views.RUNG)),
                Arguments.of("tier-1 429 without a rung waits in turn as before", rate(70L), 0, false, none, MAX,
                        new RecoveryAction.Retry(1, 70, RATE)),
                // --- quota and spend limits: their hint is no period's reset
                Arguments.of("a spend limit with a hint fails as before", quota(5_000L), 0, false, none, MAX, FINISH));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decisionTable(String name, AgentMessage.Assistant last, int attempt, boolean otherFree, FallbackView view,
            long max, RecoveryAction expected) {
        assertEquals(expected, decide(last, attempt, otherFree, view, max));
    }

    @Test
    void aResumeContinuesTheRun() {
        assertTrue(resume(1, 5, ResetWait.RATE_LIMITED, "e").continuesRun());
    }

    @Test
    void aCancelledChainNeverResumes() {
        RunFacts facts = Facts.after(usage(5_000L), CONFIG).suppressed(true).resumeAtResetMaxMs(MAX).build();
        assertEquals(FINISH, POLICY.decide(facts));
    }

    @Test
    void theHintQualifiesWhenKnownPositiveAndWithinTheMaximum() {
        assertTrue(ResetWait.qualifies(1L, 1));
        assertFalse(ResetWait.qualifies(2L, 1));
        assertFalse(ResetWait.qualifies(null, 1));
        assertFalse(ResetWait.qualifies(0L, 1));
        assertFalse(ResetWait.qualifies(1L, 0));
    }
}
