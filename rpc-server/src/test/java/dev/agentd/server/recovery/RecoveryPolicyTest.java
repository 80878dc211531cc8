package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The end-of-run decision in isolation (no session, no time, no auth store): a function of RunFacts. */
class RecoveryPolicyTest {
    private final RecoveryPolicy policy = new RecoveryPolicy();
    private static final RetryConfig DEFAULTS = RetryConfig.DEFAULTS;
    private static final RecoveryAction FINISH = new RecoveryAction.Finish();

    private RecoveryAction decide(AgentMessage.Assistant last, int chainAttempt, RetryConfig config) {
        return policy.decide(Facts.after(last, config).attempt(chainAttempt).build());
    }

    private static AgentMessage.Assistant reply(String text, Integer status, String type, Long retryAfterMs) {
        return new AgentMessage.Assistant(List.of(), "api", "p", "m", null, StopReason.ERROR, text, 0, status, type,
                retryAfterMs, null);
    }

    @Test
    void delaysDoubleFromTheBase() {
        AgentMessage.Assistant overloaded = ErrorClassifierTest.error("529 overloaded", 529, null, null);
        assertEquals(new RecoveryAction.Retry(1, 2000, "529 overloaded"), decide(overloaded, 0, DEFAULTS));
        assertEquals(new RecoveryAction.Retry(2, 4000, "529 overloaded"), decide(overloaded, 1, DEFAULTS));
        assertEquals(new RecoveryAction.Retry(3, 8000, "529 overloaded"), decide(overloaded, 2, DEFAULTS));
        RecoveryAction past = decide(overloaded, 3, DEFAULTS);
        assertEquals(new RecoveryAction.GiveUp(3, "529 overloaded", FINISH), past);
        assertFalse(past.continuesRun());
    }

    @Test
    void zeroRetriesGivesUpAtOnceReportingZeroAttempts() {
        AgentMessage.Assistant overloaded = ErrorClassifierTest.error("overloaded");
        RetryConfig none = new RetryConfig(true, 0, 2000, 60_000);
        assertEquals(new RecoveryAction.GiveUp(0, "overloaded", FINISH), decide(overloaded, 0, none));
    }

    @Test
    void nonRetryableErrorsFinishOrCloseAnOpenChain() {
        AgentMessage.Assistant unauthorized = ErrorClassifierTest.error("401 unauthorized", 401, null, null);
        assertEquals(FINISH, decide(unauthorized, 0, DEFAULTS));
        assertEquals(new RecoveryAction.GiveUp(2, "401 unauthorized", FINISH), decide(unauthorized, 2, DEFAULTS));
    }

    @Test
    void disabledRetriesNeverRetry() {
        RetryConfig off = new RetryConfig(false, 3, 2000, 60_000);
        assertEquals(FINISH, decide(ErrorClassifierTest.error("overloaded"), 0, off));
    }

    @Test
    void overBudgetHintsEndTheChain() {
        AgentMessage.Assistant hinted = reply("503 busy", 503, null, 120_000L);
        RecoveryAction action = decide(hinted, 0, DEFAULTS);
        assertEquals(new RecoveryAction.GiveUp(0,
                "Provider requested retry delay 120000ms, exceeding configured maximum 60000ms", FINISH), action);
        assertTrue(decide(hinted, 0, new RetryConfig(true, 3, 2000, 300_000)) instanceof RecoveryAction.Retry);
    }

    @Test
    void aChainCancelledMidAttemptDoesNotRetry() {
        RecoveryAction action = policy.decide(Facts.after(ErrorClassifierTest.error("overloaded"), DEFAULTS)
                .suppressed(true).window(1).build());
        assertEquals(FINISH, action);
    }

    /** Usage limits (SPEC §5.6): the decision only reads otherCredentialFree; blocking is an action. */
    static Stream<Arguments> usageLimits() {
        AgentMessage.Assistant hinted = reply("usage limit reached", 429, null, 5_000L);
        AgentMessage.Assistant unhinted = reply("usage limit reached", 429, null, null);
        AgentMessage.Assistant longHint = reply("usage limit reached", 429, "usage_limit_reached", 3_600_000L);
        return Stream.of(
                Arguments.of("free credential: switch at once", hinted, 0, true,
                        new RecoveryAction.SwitchCredential(1, "usage limit reached", 5_000L)),
                Arguments.of("free credential mid-chain: next attempt, still at once", unhinted, 2, true,
                        new RecoveryAction.SwitchCredential(3, "usage limit reached", null)),
                Arguments.of("free credential beats an over-budget hint", longHint, 0, true,
                        new RecoveryAction.SwitchCredential(1, "usage limit reached", 3_600_000L)),
                Arguments.of("no free credential: block it and back off", hinted, 0, false,
                        new RecoveryAction.BlockCredential(5_000L, new RecoveryAction.Retry(1, 2000,
                                "usage limit reached"))),
                Arguments.of("no free credential, over-budget hint: block it and give up", longHint, 0, false,
                        new RecoveryAction.BlockCredential(3_600_000L, new RecoveryAction.GiveUp(0,
                                "Provider requested retry delay 3600000ms, exceeding configured maximum 60000ms",
                                FINISH))),
                Arguments.of("retries exhausted: give up, nothing blocked", hinted, 3, true,
                        new RecoveryAction.GiveUp(3, "usage limit reached", FINISH)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("usageLimits")
    void usageLimitsSwitchOrBlockTheCredential(String name, AgentMessage.Assistant last, int chainAttempt,
            boolean otherFree, RecoveryAction expected) {
        RunFacts facts = Facts.after(last, DEFAULTS).attempt(chainAttempt).otherCredentialFree(otherFree).build();
        RecoveryAction action = policy.decide(facts);
        assertEquals(expected, action);
        assertEquals(action, policy.decide(facts), "the same facts always give the same decision");
    }

    @Test
    void aFreeCredentialDoesNotMatterForOtherErrors() {
        RunFacts facts = Facts.after(ErrorClassifierTest.error("529 overloaded", 529, null, null), DEFAULTS)
                .otherCredentialFree(true).build();
        assertEquals(new RecoveryAction.Retry(1, 2000, "529 overloaded"), policy.decide(facts));
    }

    @Test
    void theAnnouncedBackoffNeverExceedsTheMaximum() {
        AgentMessage.Assistant overloaded = ErrorClassifierTest.error("529 overloaded", 529, null, null);
        RetryConfig steep = new RetryConfig(true, 10, 2000, 10_000);
        assertEquals(new RecoveryAction.Retry(3, 8000, "529 overloaded"), decide(overloaded, 2, steep));
        assertEquals(new RecoveryAction.Retry(4, 10_000, "529 overloaded"), decide(overloaded, 3, steep));
        assertEquals(new RecoveryAction.Retry(10, 10_000, "529 overloaded"), decide(overloaded, 9, steep));
    }

    static Stream<Arguments> backoffs() {
        long day = RetryConfig.MAX_DELAY_LIMIT;
        return Stream.of(
                Arguments.of(2000L, 60_000L, 1, 2000L),
                Arguments.of(2000L, 60_000L, 0, 2000L),
                Arguments.of(2000L, 60_000L, 5, 32_000L),
                Arguments.of(2000L, 60_000L, 6, 60_000L),
                Arguments.of(2000L, 60_000L, 63, 60_000L),
                Arguments.of(2000L, 60_000L, 64, 60_000L),
                Arguments.of(2000L, 60_000L, 100, 60_000L),
                Arguments.of(2000L, 60_000L, Integer.MAX_VALUE, 60_000L),
                Arguments.of(0L, 60_000L, 1, 0L),
                Arguments.of(0L, 60_000L, 63, 0L),
                Arguments.of(0L, 60_000L, 100, 0L),
                Arguments.of(day, day, 1, day),
                Arguments.of(day, day, 2, day),
                Arguments.of(day, day, 63, day),
                Arguments.of(day, day, 100, day),
                Arguments.of(day, 60_000L, 1, 60_000L),
                Arguments.of(1L, day, 27, 1L << 26),
                Arguments.of(1L, day, 28, day),
                Arguments.of(1L, Long.MAX_VALUE, 63, 1L << 62),
                Arguments.of(2000L, 0L, 1, 0L));
    }

    @ParameterizedTest(name = "base {0} max {1} attempt {2} -> {3}")
    @MethodSource("backoffs")
    void backoffIsCappedAtTheMaximumAndNeverOverflows(long base, long max, int attempt, long expected) {
        assertEquals(expected, new RetryConfig(true, 100, base, max, max).backoffMs(attempt));
    }

    @Test
    void maxAgentDelayMsCapsTheBackoffAsInPiOneAndIsReadFromSettings() {
        // pi 1.x: the backoff stops growing at retry.maxAgentDelayMs, even when hints may be longer
        RetryConfig config = new RetryConfig(true, 10, 2000, 300_000, 5_000);
        assertEquals(List.of(2000L, 4000L, 5000L, 5000L),
                List.of(config.backoffMs(1), config.backoffMs(2), config.backoffMs(3), config.backoffMs(4)));
        assertEquals(60_000, RetryConfig.DEFAULTS.maxAgentDelayMs(), "pi's default");
        assertEquals(60_000, new RetryConfig(true, 10, 2000, 300_000).backoffMs(10));

        dev.agentd.server.config.SettingsStore store = dev.agentd.server.config.SettingsStore.inMemory();
        store.setForProcess("retry.maxAgentDelayMs", com.fasterxml.jackson.databind.node.LongNode.valueOf(7_000));
        assertEquals(7_000, RetryConfig.from(store.current()).maxAgentDelayMs());
    }
}
