package dev.agentd.client;

import static dev.agentd.client.FakeDaemon.AGENT_START;
import static dev.agentd.client.FakeDaemon.agentEnd;
import static dev.agentd.client.FakeDaemon.assistantEnd;
import static dev.agentd.client.FakeDaemon.retryEnd;
import static dev.agentd.client.FakeDaemon.retryStart;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import org.junit.jupiter.api.Test;

/** The idle/busy rules on explicit time: every event order of SPEC §5.3 and pi §7.3. */
class RunStateTest {
    private static final long GRACE = 1_000;
    private final RunState state = new RunState();
    private long now = 10_000;

    /** Applies the events and returns whether the state is idle after each. */
    private String feed(String... events) throws Exception {
        StringBuilder idle = new StringBuilder();
        for (String event : events) {
            state.apply(Json.mapper().readValue(event, AgentEvent.class), now, GRACE);
            idle.append(state.isIdle(now) ? 'I' : 'b');
        }
        return idle.toString();
    }

    @Test
    void freshStateIsIdle() {
        assertTrue(state.isIdle(now));
    }

    @Test
    void plainRun() throws Exception {
        assertEquals("bbI", feed(AGENT_START, assistantEnd("stop"), agentEnd(false)));
    }

    @Test
    void successfulRetryChain() throws Exception {
        assertEquals("bbbbbbbI", feed(AGENT_START, assistantEnd("error"), agentEnd(true), retryStart(1),
                AGENT_START, assistantEnd("stop"), retryEnd(true, 1, null), agentEnd(false)));
    }

    @Test
    void continuationIsExpectedBeforeTheRetryIsAnnounced() throws Exception {
        assertEquals("bb", feed(AGENT_START, agentEnd(true)));
    }

    @Test
    void exhaustedChainEndsWithTheFailedRetryEnd() throws Exception {
        assertEquals("bbbbbI", feed(AGENT_START, agentEnd(true), retryStart(1), AGENT_START, agentEnd(false),
                retryEnd(false, 1, "529")));
    }

    @Test
    void retriedRunWithNonRetryableErrorEndsWithTheFailedRetryEnd() throws Exception {
        assertEquals("bbbbbbI", feed(AGENT_START, agentEnd(true), retryStart(1), AGENT_START,
                assistantEnd("error"), agentEnd(false), retryEnd(false, 1, "401 unauthorized")));
    }

    @Test
    void cancelledDuringBackoff() throws Exception {
        assertEquals("bbbI", feed(AGENT_START, agentEnd(true), retryStart(1), retryEnd(false, 1, "Retry cancelled")));
    }

    @Test
    void successReportedAfterAgentEndAsOmpDoes() throws Exception {
        assertEquals("bbbbbI", feed(AGENT_START, agentEnd(true), retryStart(1), AGENT_START, agentEnd(false),
                retryEnd(true, 1, null)));
    }

    @Test
    void missingWillRetryIsBusyForTheGraceOnly() throws Exception {
        assertEquals("bb", feed(AGENT_START, agentEnd(null)));
        assertEquals(GRACE, state.graceRemaining(now));
        now += GRACE;
        assertTrue(state.isIdle(now));
    }

    @Test
    void missingWillRetryFollowedByARetry() throws Exception {
        assertEquals("bbb", feed(AGENT_START, agentEnd(null), retryStart(1)));
        now += 10 * GRACE;
        assertFalse(state.isIdle(now), "the open chain, not the grace, keeps it busy");
        assertEquals("bbb", feed(AGENT_START, retryEnd(true, 1, null), agentEnd(null)));
        now += GRACE;
        assertTrue(state.isIdle(now));
    }

    @Test
    void overflowCompactionContinues() throws Exception {
        assertEquals("bbbbbI", feed(AGENT_START, agentEnd(true),
                "{\"type\":\"compaction_start\",\"reason\":\"overflow\"}",
                "{\"type\":\"compaction_end\",\"reason\":\"overflow\",\"aborted\":false,\"willRetry\":true}",
                AGENT_START, agentEnd(false)));
    }

    @Test
    void thresholdCompactionAfterTheRunIsBusyUntilItEnds() throws Exception {
        assertEquals("bIbI", feed(AGENT_START, agentEnd(false),
                "{\"type\":\"compaction_start\",\"reason\":\"threshold\"}",
                "{\"type\":\"compaction_end\",\"reason\":\"threshold\",\"aborted\":false,\"willRetry\":false}"));
    }

    @Test
    void acceptedPromptIsBusyUntilItsRunStartsOrItFails() throws Exception {
        state.promptSent("req_1");
        assertFalse(state.isIdle(now));
        assertEquals("bI", feed(AGENT_START, agentEnd(false)));

        state.promptSent("req_2");
        state.promptSettled("req_2");
        assertTrue(state.isIdle(now));
    }

    @Test
    void copyIsIndependent() throws Exception {
        feed(AGENT_START);
        RunState copy = state.copy();
        feed(agentEnd(false));
        assertTrue(state.isIdle(now));
        assertFalse(copy.isIdle(now));
    }
}
