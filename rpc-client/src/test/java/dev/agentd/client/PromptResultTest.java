package dev.agentd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a caller learns from a prompt's events without scanning them itself. */
class PromptResultTest {

    private static AgentEvent reply(StopReason reason, String text, String error) {
        return new AgentEvent.MessageEnd(new AgentMessage.Assistant(List.of(new ContentBlock.Text(text)), "api", "p",
                "m", Usage.ZERO, reason, error, 0));
    }

    private static final AgentEvent FAILED = reply(StopReason.ERROR, "", "529 overloaded");
    private static final AgentEvent OK = reply(StopReason.STOP, "hello", null);

    @Test
    void aCompletedReplySucceeds() {
        PromptResult result = new PromptResult(List.of(OK, new AgentEvent.AgentEnd(List.of(), false)));
        assertTrue(result.succeeded());
        assertEquals(Optional.of("hello"), result.text());
        assertEquals(Optional.of(StopReason.STOP), result.stopReason());
        assertEquals(Optional.empty(), result.error());
        assertEquals(Optional.empty(), result.failedRetryChain());
    }

    @Test
    void aRecoveredRetryChainSucceedsOnTheLastReply() {
        PromptResult result = new PromptResult(List.of(FAILED, new AgentEvent.AutoRetryStart(1, 3, 0, "529 overloaded"),
                OK, new AgentEvent.AutoRetryEnd(true, 1, null)));
        assertTrue(result.succeeded());
        assertEquals(Optional.of("hello"), result.text());
    }

    @Test
    void retriesThatRanOutFailWithTheChainsFinalError() {
        PromptResult result = new PromptResult(List.of(FAILED, new AgentEvent.AutoRetryStart(1, 1, 0, "x"), FAILED,
                new AgentEvent.AutoRetryEnd(false, 1, "529 overloaded (final)")));
        assertFalse(result.succeeded());
        assertEquals(Optional.of("529 overloaded (final)"), result.error());
        assertEquals(1, result.failedRetryChain().orElseThrow().attempt());
        assertEquals(Optional.of(StopReason.ERROR), result.stopReason());
    }

    @Test
    void aCancelledChainFailsEvenThoughNoReplyFollowed() {
        PromptResult result = new PromptResult(List.of(FAILED, new AgentEvent.AutoRetryEnd(false, 1, "Retry cancelled")));
        assertFalse(result.succeeded());
        assertEquals(Optional.of("Retry cancelled"), result.error());
    }

    @Test
    void aFailedOrAbortedReplyWithoutChainFails() {
        assertEquals(Optional.of("529 overloaded"), new PromptResult(List.of(FAILED)).error());
        PromptResult aborted = new PromptResult(List.of(reply(StopReason.ABORTED, "par", null)));
        assertFalse(aborted.succeeded());
        assertEquals(Optional.of("aborted"), aborted.error());
        assertEquals(Optional.of("par"), aborted.text());
    }

    @Test
    void noReplyAtAllIsNotASuccess() {
        PromptResult empty = new PromptResult(List.of(new AgentEvent.AgentEnd(List.of(), false)));
        assertFalse(empty.succeeded());
        assertEquals(Optional.empty(), empty.finalMessage());
        assertEquals(Optional.of("no reply"), empty.error());
    }

    @Test
    void theFallbackSwitchesAndTheExhaustedChainAreTyped() {
        AgentEvent.RetryFallbackApplied first = new AgentEvent.RetryFallbackApplied("a/x", "b/y", "a/x", "transient", null);
        AgentEvent.RetryFallbackApplied second = new AgentEvent.RetryFallbackApplied("b/y", "a/z", "a/x", "hard-error", null);
        AgentEvent.RetryFallbackExhausted exhausted = new AgentEvent.RetryFallbackExhausted("a/x", "529 overloaded");
        PromptResult walked = new PromptResult(List.of(FAILED, first, FAILED, second, FAILED, exhausted,
                new AgentEvent.AutoRetryEnd(false, 1, "529 overloaded")));
        assertEquals(List.of(first, second), walked.fallbackSwitches());
        assertEquals(Optional.of(exhausted), walked.fallbackExhausted());
        assertFalse(walked.succeeded());

        PromptResult plain = new PromptResult(List.of(OK, new AgentEvent.AgentEnd(List.of(), false)));
        assertEquals(List.of(), plain.fallbackSwitches());
        assertEquals(Optional.empty(), plain.fallbackExhausted());
    }

    @Test
    void resumesAtTheResetAreTyped() {
        AgentEvent.RetryResumeScheduled resume = new AgentEvent.RetryResumeScheduled("a/x", 5000, 3000, "usage_limit");
        PromptResult waited = new PromptResult(List.of(FAILED, resume, OK, new AgentEvent.AgentEnd(List.of(), false)));
        assertEquals(List.of(resume), waited.resumes());
        assertEquals(List.of(), new PromptResult(List.of(OK)).resumes());
    }
}
