package dev.agentd.examples.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentd.client.RpcException;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The chat's presenter on synthetic events, a fake terminal and fake time. */
class ChatControllerTest {
    private static final String OVERLOADED = "529 overloaded";

    private final FakeTerminal terminal = new FakeTerminal();
    private final ManualScheduler time = new ManualScheduler();
    private final RecordingAgent agent = new RecordingAgent();
    private final ChatController chat = new ChatController(terminal, agent, time);
    private Runnable idleEscape;

    @BeforeEach
    void start() {
        chat.start();
        idleEscape = terminal.binding(Key.ESCAPE);
    }

    @Test
    void countdownIsRewrittenEverySecondUntilTheRetryStarts() {
        failFirstAttempt();
        chat.onEvent(new AgentEvent.AutoRetryStart(1, 3, 2000, OVERLOADED));
        assertEquals("Retrying (1/3) in 2s… (esc to cancel)", terminal.status());

        time.advance(999);
        assertEquals("Retrying (1/3) in 2s… (esc to cancel)", terminal.status());
        time.advance(1);
        assertEquals("Retrying (1/3) in 1s… (esc to cancel)", terminal.status());
        time.advance(1000);
        assertEquals("Retrying (1/3) now… (esc to cancel)", terminal.status());

        assertEquals(0, time.pending(), "no tick after the wait is over");
        assertEquals(List.of("Retrying (1/3) in 2s… (esc to cancel)", "Retrying (1/3) in 1s… (esc to cancel)",
                "Retrying (1/3) now… (esc to cancel)"), terminal.statuses());
    }

    @Test
    void escapeDuringTheWaitCancelsTheRetryAndTheEndRestoresThePreviousAction() {
        failFirstAttempt();
        chat.onEvent(new AgentEvent.AutoRetryStart(1, 3, 2000, OVERLOADED));
        assertNotSame(idleEscape, terminal.binding(Key.ESCAPE), "Esc is rebound during the wait");

        terminal.press(Key.ESCAPE);
        assertEquals(List.of("prompt hi", "abortRetry"), agent.calls());

        chat.onEvent(new AgentEvent.AutoRetryEnd(false, 1, "Retry cancelled"));
        assertEquals("Retry cancelled", last(terminal.lines()));
        assertEquals("", terminal.status());
        assertSame(idleEscape, terminal.binding(Key.ESCAPE));
        assertEquals(0, time.pending());
        assertFalse(chat.busy());
    }

    @Test
    void laterAttemptsRestartTheCountdownAndSuccessRestoresTheFirstAction() {
        failFirstAttempt();
        chat.onEvent(new AgentEvent.AutoRetryStart(1, 3, 2000, OVERLOADED));
        time.advance(2000);
        retriedRunFails();
        chat.onEvent(new AgentEvent.AutoRetryStart(2, 3, 4000, OVERLOADED));
        assertEquals("Retrying (2/3) in 4s… (esc to cancel)", terminal.status());

        chat.onEvent(new AgentEvent.AgentStart());
        chat.onEvent(textDelta("Fine now."));
        chat.onEvent(new AgentEvent.MessageEnd(reply(StopReason.STOP, null)));
        chat.onEvent(new AgentEvent.AutoRetryEnd(true, 2, null));
        assertSame(idleEscape, terminal.binding(Key.ESCAPE), "restored to the action before the chain");
        assertEquals("", terminal.status());
        chat.onEvent(new AgentEvent.AgentEnd(List.of(), false));

        assertEquals(List.of("Fine now."), terminal.lines());
        assertFalse(chat.busy());
    }

    @Test
    void aChainThatFailsEndsWithTheFinalErrorLine() {
        failFirstAttempt();
        chat.onEvent(new AgentEvent.AutoRetryStart(1, 1, 10, OVERLOADED));
        retriedRunFails();
        assertTrue(chat.busy(), "the chain is still open after the last agent_end");
        chat.onEvent(new AgentEvent.AutoRetryEnd(false, 1, OVERLOADED));

        assertEquals(List.of("Retry failed after 1 attempts: 529 overloaded"), terminal.lines());
        assertSame(idleEscape, terminal.binding(Key.ESCAPE));
        assertFalse(chat.busy());
    }

    @Test
    void escapeOutsideARetryAbortsTheRunningPromptAndDoesNothingWhenIdle() {
        terminal.press(Key.ESCAPE);
        assertEquals(List.of(), agent.calls(), "idle: nothing to abort");

        chat.submit("hi");
        chat.onEvent(new AgentEvent.AgentStart());
        terminal.press(Key.ESCAPE);
        chat.onEvent(new AgentEvent.MessageEnd(reply(StopReason.ABORTED, "Request aborted")));
        chat.onEvent(new AgentEvent.AgentEnd(List.of(), false));

        assertEquals(List.of("prompt hi", "abort"), agent.calls());
        assertEquals(List.of("(aborted)"), terminal.lines());
    }

    @Test
    void aLineWhileARunIsActiveIsSentAsAFollowUp() {
        chat.submit("first");
        chat.submit("  second  ");
        chat.submit("   ");
        chat.onEvent(new AgentEvent.AgentStart());
        chat.onEvent(new AgentEvent.AgentEnd(List.of(), false));
        chat.submit("third");

        assertEquals(List.of("prompt first", "followUp second", "prompt third"), agent.calls());
        assertEquals(List.of("(queued as a follow-up)"), terminal.lines());
    }

    @Test
    void streamsTextAndShowsToolCallsBriefly() {
        chat.submit("list");
        chat.onEvent(new AgentEvent.AgentStart());
        chat.onEvent(textDelta("Let me "));
        chat.onEvent(textDelta("look."));
        chat.onEvent(new AgentEvent.MessageEnd(reply(StopReason.TOOL_USE, null)));
        chat.onEvent(new AgentEvent.ToolExecutionStart("t1", "ls",
                JsonNodeFactory.instance.objectNode().put("path", ".")));
        chat.onEvent(new AgentEvent.ToolExecutionEnd("t1", "ls", null, true));
        chat.onEvent(textDelta("Done.\nBye"));
        chat.onEvent(new AgentEvent.MessageEnd(reply(StopReason.STOP, null)));
        chat.onEvent(new AgentEvent.AgentEnd(List.of(), false));

        assertEquals(List.of("Let me look.", "[tool] ls {\"path\":\".\"}", "[tool] ls failed", "Done.", "Bye"),
                terminal.lines());
    }

    @Test
    void fallbackAndCircuitEventsBecomeOneLineNotices() {
        Model faux2 = new Model("faux-2", "Faux 2", "faux", "faux", "faux://embedded", false, null, null, 1000, 100);
        chat.onEvent(new AgentEvent.RetryFallbackApplied("faux/faux-1", "faux/faux-2", "faux/faux-1", "overloaded", null));
        chat.onEvent(new AgentEvent.ModelChanged(faux2, ThinkingLevel.OFF, "fallback"));
        chat.onEvent(new AgentEvent.RetryFallbackSucceeded("faux/faux-2", "faux/faux-1"));
        chat.onEvent(new AgentEvent.FallbackCircuitOpened("faux/faux-1", 60000, null));
        chat.onEvent(new AgentEvent.RetryFallbackReverted("faux/faux-2", "faux/faux-1", null));
        chat.onEvent(new AgentEvent.FallbackCircuitClosed("faux/faux-1"));
        chat.onEvent(new AgentEvent.RetryFallbackApplied("a/x", "b/y", "a/x", "billing", "account"));
        chat.onEvent(new AgentEvent.RetryFallbackExhausted("a/x", "402 credit balance too low"));
        chat.onEvent(new AgentEvent.ModelChanged(faux2, null, "set"));

        assertEquals(List.of(
                "Switched from faux/faux-1 to faux/faux-2 (overloaded)",
                "Fallback model faux/faux-2 answered",
                "Circuit opened for faux/faux-1 (60s)",
                "Back on faux/faux-1",
                "Circuit closed for faux/faux-1",
                "Switched from a/x to b/y (billing, account limit)",
                "Fallback chain exhausted: 402 credit balance too low",
                "Model: faux/faux-2"), terminal.lines());
    }

    @Test
    void anErrorNoRetryTakesOverIsShownOnce() {
        chat.submit("hi");
        chat.onEvent(new AgentEvent.AgentStart());
        chat.onEvent(new AgentEvent.MessageEnd(reply(StopReason.ERROR, "401 invalid x-api-key")));
        chat.onEvent(new AgentEvent.AgentEnd(List.of(), false));

        assertEquals(List.of("Error: 401 invalid x-api-key"), terminal.lines());
        assertFalse(chat.busy());
    }

    @Test
    void failedPromptsAreReportedAndFreeTheChat() {
        agent.refuseNext(new RpcException("prompt failed: Message must not be empty", "prompt",
                "Message must not be empty", null, null));
        chat.submit("x");
        assertFalse(chat.busy());
        agent.refuseNext(new RpcException("prompt failed: No API key for anthropic", "prompt",
                "No API key for anthropic", null, null));
        chat.submit("y");

        assertEquals(List.of("Error (prompt): Message must not be empty", "Error (prompt): No API key for anthropic"),
                terminal.lines());
        assertFalse(chat.busy());
    }

    @Test
    void withoutAnEarlierActionEscapeIsUnboundAgainAfterTheChain() {
        terminal.unbind(Key.ESCAPE);
        chat.onEvent(new AgentEvent.AutoRetryStart(1, 3, 0, OVERLOADED));
        assertEquals("Retrying (1/3) now… (esc to cancel)", terminal.status());
        chat.onEvent(new AgentEvent.AutoRetryEnd(true, 1, null));
        assertNull(terminal.binding(Key.ESCAPE));
    }

    // --- helpers -----------------------------------------------------------------------------

    /** A prompt whose first run fails with a retryable error and announces a retry. */
    private void failFirstAttempt() {
        chat.submit("hi");
        chat.onEvent(new AgentEvent.AgentStart());
        chat.onEvent(new AgentEvent.MessageEnd(reply(StopReason.ERROR, OVERLOADED)));
        chat.onEvent(new AgentEvent.AgentEnd(List.of(), true));
    }

    private void retriedRunFails() {
        chat.onEvent(new AgentEvent.AgentStart());
        chat.onEvent(new AgentEvent.MessageEnd(reply(StopReason.ERROR, OVERLOADED)));
        chat.onEvent(new AgentEvent.AgentEnd(List.of(), false));
    }

    private static AgentEvent textDelta(String delta) {
        return new AgentEvent.MessageUpdate(null, new AssistantMessageEvent("text_delta", 0, delta, null, null, null));
    }

    private static AgentMessage.Assistant reply(StopReason stopReason, String errorMessage) {
        return new AgentMessage.Assistant(List.of(new ContentBlock.Text("")), "faux", "faux", "faux-1", null,
                stopReason, errorMessage, 0L);
    }

    private static String last(List<String> lines) {
        return lines.get(lines.size() - 1);
    }
}
