package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The end-of-run decision in isolation (no session, no time). */
class RecoveryPolicyTest {
    private final RecoveryPolicy policy = new RecoveryPolicy();
    private static final RetryConfig DEFAULTS = RetryConfig.DEFAULTS;

    private RecoveryAction decide(AgentMessage.Assistant last, int chainAttempt, RetryConfig config) {
        return policy.decide(new RunFacts(last, chainAttempt, config, false, 200_000), CredentialRotation.NONE);
    }

    @Test
    void delaysDoubleFromTheBase() {
        AgentMessage.Assistant overloaded = ErrorClassifierTest.error("529 overloaded", 529, null, null);
        assertEquals(new RecoveryAction.Retry(1, 2000, "529 overloaded", false), decide(overloaded, 0, DEFAULTS));
        assertEquals(new RecoveryAction.Retry(2, 4000, "529 overloaded", false), decide(overloaded, 1, DEFAULTS));
        assertEquals(new RecoveryAction.Retry(3, 8000, "529 overloaded", false), decide(overloaded, 2, DEFAULTS));
        RecoveryAction past = decide(overloaded, 3, DEFAULTS);
        assertEquals(new RecoveryAction.GiveUp(3, "529 overloaded", new RecoveryAction.Finish()), past);
        assertFalse(past.continuesRun());
    }

    @Test
    void zeroRetriesGivesUpAtOnceReportingZeroAttempts() {
        AgentMessage.Assistant overloaded = ErrorClassifierTest.error("overloaded");
        RetryConfig none = new RetryConfig(true, 0, 2000, 60_000);
        assertEquals(new RecoveryAction.GiveUp(0, "overloaded", new RecoveryAction.Finish()),
                decide(overloaded, 0, none));
    }

    @Test
    void nonRetryableErrorsFinishOrCloseAnOpenChain() {
        AgentMessage.Assistant unauthorized = ErrorClassifierTest.error("401 unauthorized", 401, null, null);
        assertEquals(new RecoveryAction.Finish(), decide(unauthorized, 0, DEFAULTS));
        assertEquals(new RecoveryAction.GiveUp(2, "401 unauthorized", new RecoveryAction.Finish()),
                decide(unauthorized, 2, DEFAULTS));
    }

    @Test
    void disabledRetriesNeverRetry() {
        RetryConfig off = new RetryConfig(false, 3, 2000, 60_000);
        assertEquals(new RecoveryAction.Finish(), decide(ErrorClassifierTest.error("overloaded"), 0, off));
    }

    @Test
    void overBudgetHintsEndTheChainUnlessACredentialSwitchApplies() {
        AgentMessage.Assistant hinted = new AgentMessage.Assistant(List.of(), "api", "p", "m", null,
                dev.agentd.protocol.message.StopReason.ERROR, "503 busy", 0, 503, null, 120_000L, null);
        RecoveryAction action = decide(hinted, 0, DEFAULTS);
        assertEquals(new RecoveryAction.GiveUp(0,
                "Provider requested retry delay 120000ms, exceeding configured maximum 60000ms",
                new RecoveryAction.Finish()), action);
        assertTrue(decide(hinted, 0, new RetryConfig(true, 3, 2000, 300_000)) instanceof RecoveryAction.Retry);
    }

    @Test
    void usageLimitsAskTheAuthStoreAndRetryAtOnceWhenItSwitched() {
        AgentMessage.Assistant limit = new AgentMessage.Assistant(List.of(), "api", "p", "m", null,
                dev.agentd.protocol.message.StopReason.ERROR, "usage limit reached", 0, 429, null, 5_000L, null);
        List<Long> marked = new ArrayList<>();
        RecoveryAction switched = policy.decide(new RunFacts(limit, 0, DEFAULTS, false, 1),
                hint -> marked.add(hint));
        assertEquals(new RecoveryAction.Retry(1, 0, "usage limit reached", true), switched);
        assertEquals(List.of(5_000L), marked);
        RecoveryAction stuck = policy.decide(new RunFacts(limit, 0, DEFAULTS, false, 1), hint -> false);
        assertEquals(new RecoveryAction.Retry(1, 2000, "usage limit reached", false), stuck);
    }

    @Test
    void aChainCancelledMidAttemptDoesNotRetry() {
        RecoveryAction action = policy.decide(new RunFacts(ErrorClassifierTest.error("overloaded"), 0, DEFAULTS, true,
                1), CredentialRotation.NONE);
        assertEquals(new RecoveryAction.Finish(), action);
    }

    @Test
    void backoffSaturatesInsteadOfOverflowing() {
        RetryConfig huge = new RetryConfig(true, 100, RetryConfig.MAX_DELAY_LIMIT, RetryConfig.MAX_DELAY_LIMIT);
        assertEquals(Long.MAX_VALUE, huge.backoffMs(100));
        assertEquals(RetryConfig.MAX_DELAY_LIMIT * 2, huge.backoffMs(2));
    }
}
