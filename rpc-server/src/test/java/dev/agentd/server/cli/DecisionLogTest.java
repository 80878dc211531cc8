package dev.agentd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.testing.Samples;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every event type is either described as a decision or named as none: a new type cannot slip by. */
class DecisionLogTest {
    @Test
    void everyEventIsADecisionOrNamedAsNone() {
        List<String> decisions = new ArrayList<>();
        for (AgentEvent event : Samples.oneOfEach(AgentEvent.class)) {
            if (DecisionLog.describe(event) != null) {
                decisions.add(event.getClass().getSimpleName());
            }
        }
        assertEquals(List.of("AutoRetryStart", "AutoRetryEnd", "CompactionStart", "CompactionEnd",
                "RetryFallbackApplied", "RetryFallbackReverted", "RetryFallbackExhausted", "RetryResumeScheduled",
                "ModelRerouted",
                "FallbackCircuitOpened"), decisions);
        assertEquals("the provider answered claude-fable-5 with claude-opus-4-8",
                DecisionLog.describe(new AgentEvent.ModelRerouted("claude-fable-5", "claude-opus-4-8", null)));
        assertEquals("resuming a/x at the reset in 3000 ms because: usage_limit",
                DecisionLog.describe(new AgentEvent.RetryResumeScheduled("a/x", 9_000, 3_000, "usage_limit")));
        assertThrows(IllegalStateException.class, () -> DecisionLog.describe(null));
    }
}
