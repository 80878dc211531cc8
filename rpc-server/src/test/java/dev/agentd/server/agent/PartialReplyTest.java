package dev.agentd.server.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.ResumedFrom;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The keep/drop rules for a cut reply (SPEC §5.9) and the merge that makes the continuation one reply. */
class PartialReplyTest {
    private static final String ANTHROPIC = "anthropic-messages";
    private static final String OPENAI = "openai-completions";
    private static final ContentBlock.ToolCall READ = new ContentBlock.ToolCall("c1", "read",
            Json.mapper().createObjectNode().put("path", "a.txt"));
    private static final ContentBlock.ToolCall HALF = new ContentBlock.ToolCall("c2", "read",
            Json.mapper().createObjectNode());

    private static AgentMessage.Assistant failed(String api, ContentBlock... content) {
        return new AgentMessage.Assistant(List.of(content), api, "p", "m", new Usage(10, 5, 0, 0, 15, null),
                StopReason.ERROR, "connection reset", 7L, null, "network_error", null, true, null);
    }

    private static AgentMessage.Assistant reply(StopReason stop, ContentBlock... content) {
        return new AgentMessage.Assistant(List.of(content), ANTHROPIC, "p", "m", Usage.ZERO, stop, null, 9L,
                null, null, null, null, null);
    }

    @Test
    void completeToolCallsAreKeptWithTheTextAndIncompleteOnesDropped() {
        var kept = PartialReply.keep(failed(OPENAI, new ContentBlock.Text("Reading it."), READ, HALF),
                Set.of("c1"), true).orElseThrow();
        assertEquals(List.of(new ContentBlock.Text("Reading it."), READ), kept.message().content());
        assertEquals(StopReason.TOOL_USE, kept.message().stopReason());
        assertNull(kept.message().errorMessage());
        assertNull(kept.message().errorType());
        assertEquals(Usage.ZERO, kept.message().usage(), "the failed reply already counted the usage");
        assertEquals(new ResumedFrom(11, 1), kept.resumedFrom());
    }

    @Test
    void partialTextIsKeptForPrefillOnlyWhereTheApiContinuesAnAssistantMessage() {
        var kept = PartialReply.keep(failed(ANTHROPIC, new ContentBlock.Text("The answer is ")), Set.of(), true)
                .orElseThrow();
        assertEquals(List.of(new ContentBlock.Text("The answer is")), kept.message().content(),
                "a prefill must not end with whitespace");
        assertEquals(StopReason.STOP, kept.message().stopReason());
        assertEquals(new ResumedFrom(13, 0), kept.resumedFrom());
        assertEquals(Optional.empty(), PartialReply.keep(failed(OPENAI, new ContentBlock.Text("The answer")),
                Set.of(), true));
        assertEquals(Optional.empty(), PartialReply.keep(failed(ANTHROPIC, new ContentBlock.Text("The answer")),
                Set.of(), false), "another model does not continue the text");
    }

    @Test
    void thinkingIsKeptOnlySignedAndBeforeKeptCalls() {
        ContentBlock.Thinking signed = new ContentBlock.Thinking("plan", "sig", null);
        ContentBlock.Thinking unsigned = new ContentBlock.Thinking("half a tho", null, null);
        var withCalls = PartialReply.keep(failed(ANTHROPIC, signed, unsigned, READ), Set.of("c1"), true)
                .orElseThrow();
        assertEquals(List.of(signed, READ), withCalls.message().content());
        // text after thinking: Anthropic refuses a prefill with extended thinking, so nothing is kept
        assertEquals(Optional.empty(), PartialReply.keep(failed(ANTHROPIC, signed, new ContentBlock.Text("So")),
                Set.of(), true));
    }

    @Test
    void nothingWorthKeepingKeepsNothing() {
        assertEquals(Optional.empty(), PartialReply.keep(failed(ANTHROPIC), Set.of(), true));
        assertEquals(Optional.empty(), PartialReply.keep(failed(ANTHROPIC, new ContentBlock.Text("  \n")),
                Set.of(), true));
        assertEquals(Optional.empty(), PartialReply.keep(failed(OPENAI, HALF), Set.of(), true),
                "a call whose block never ended is asked for again");
        assertEquals(Optional.empty(), PartialReply.keep(reply(StopReason.STOP, new ContentBlock.Text("done")),
                Set.of(), true), "only a failed reply is cut");
    }

    @Test
    void theContinuationIsMergedIntoTheKeptTextAsOneReply() {
        AgentMessage.Assistant kept = reply(StopReason.STOP, new ContentBlock.Text("The answer is"));
        AgentMessage.Assistant continuation = new AgentMessage.Assistant(List.of(new ContentBlock.Text(" 42."), READ),
                ANTHROPIC, "p", "m", new Usage(3, 2, 0, 0, 5, null), StopReason.TOOL_USE, null, 20L, null, null,
                null, null, null);
        AgentMessage.Assistant merged = PartialReply.merge(kept, continuation);
        assertEquals(List.of(new ContentBlock.Text("The answer is 42."), READ), merged.content());
        assertEquals(StopReason.TOOL_USE, merged.stopReason());
        assertEquals(continuation.usage(), merged.usage());
        assertEquals(9L, merged.timestamp(), "the reply began when the kept text did");
    }

    @Test
    void onlyAKeptReplyStillAtTheEndOfTheContextIsContinued() {
        Conversation conversation = new Conversation();
        conversation.append(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1L));
        AgentMessage.Assistant done = reply(StopReason.STOP, new ContentBlock.Text("A whole reply"));
        conversation.append(done);
        assertEquals(Optional.empty(), conversation.keptAtEnd(), "an ordinary reply is not continued");
        assertEquals(Optional.empty(), PartialReply.prefill(conversation.keptAtEnd()));

        AgentMessage.Assistant text = reply(StopReason.STOP, new ContentBlock.Text("The"));
        conversation.appendKept(text);
        assertEquals(Optional.of(text), PartialReply.prefill(conversation.keptAtEnd()));
        assertEquals(Optional.empty(), PartialReply.unansweredCalls(conversation.keptAtEnd()));
        conversation.append(new AgentMessage.User(List.of(new ContentBlock.Text("next")), 2L));
        assertEquals(Optional.empty(), conversation.keptAtEnd(), "a message after it ends the continuation");

        AgentMessage.Assistant calls = reply(StopReason.TOOL_USE, READ);
        conversation.appendKept(calls);
        assertEquals(Optional.of(calls), PartialReply.unansweredCalls(conversation.keptAtEnd()));
        assertEquals(Optional.empty(), PartialReply.prefill(conversation.keptAtEnd()));
        assertTrue(PartialReply.prefillAllowed(ANTHROPIC));
    }
}
