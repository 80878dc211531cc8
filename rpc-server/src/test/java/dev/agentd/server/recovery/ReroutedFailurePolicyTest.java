package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.ErrorTypes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FALLBACK §10: a failed reply that another model answered is not fallen back from a second time. */
class ReroutedFailurePolicyTest {
    private static final RecoveryPolicy POLICY = new RecoveryPolicy();
    private static final RetryConfig THREE = new RetryConfig(true, 3, 1000, 60_000);
    private static final FallbackView RUNG = Views.view(true, "p/m", true, true, false);

    private static AgentMessage.Assistant failed(String responseModel, String text, Integer status, String type) {
        return new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO, StopReason.ERROR, text, 0, status,
                type, null, null, responseModel);
    }

    private static RecoveryAction decide(AgentMessage.Assistant last, int attempt) {
        return POLICY.decide(Facts.after(last, THREE).attempt(attempt).fallback(RUNG).build());
    }

    @Test
    void aTransientFailurePastTheBudgetEndsTheChainInsteadOfSwitching() {
        // the same reply from the requested model switches to the rung ...
        assertInstanceOf(RecoveryAction.SwitchModel.class, decide(failed(null, "503 overloaded", 503, null), 3));
        // ... from a rerouted one the chain ends as without a fallback chain: no exhaustion announced either
        RecoveryAction.GiveUp gaveUp = assertInstanceOf(RecoveryAction.GiveUp.class,
                decide(failed("other-model", "503 overloaded", 503, null), 3));
        assertEquals(3, gaveUp.attempt());
    }

    @Test
    void aTransientFailureWithinTheBudgetIsRetriedOnTheRequestedModel() {
        RecoveryAction.Retry retry = assertInstanceOf(RecoveryAction.Retry.class,
                decide(failed("other-model", "503 overloaded", 503, null), 1));
        assertEquals(2, retry.attempt());
    }

    @Test
    void aRefusalFromTheProvidersFallbackIsFinal() {
        assertInstanceOf(RecoveryAction.SwitchModel.class, decide(failed(null, "refused", null, ErrorTypes.REFUSAL), 0));
        assertInstanceOf(RecoveryAction.Finish.class,
                decide(failed("other-model", "refused", null, ErrorTypes.REFUSAL), 0));
    }

    @Test
    void aSnapshotOfTheRequestedModelIsNotAReroute() {
        assertInstanceOf(RecoveryAction.SwitchModel.class,
                decide(failed("m-2025-01-01", "503 overloaded", 503, null), 3));
    }
}
