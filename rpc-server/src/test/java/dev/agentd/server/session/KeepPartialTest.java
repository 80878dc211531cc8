package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.ResumedFrom;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.AssistantMessageBuilder;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code retry.keepPartial} on fake time (SPEC §5.9): a reply cut after a complete tool call keeps
 * the call, runs it once and does not ask for it again; with the setting off the turn is re-asked.
 */
class KeepPartialTest {
    private static final String CUT = "Connection reset";

    @TempDir
    Path dir;
    SessionHarness harness;
    final CountingTool tool = new CountingTool();

    static final class CountingTool implements Tool {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public ToolDefinition definition() {
            return new ToolDefinition("count", "counts its runs", Json.mapper().createObjectNode());
        }

        @Override
        public ToolResult execute(String id, JsonNode args, CancellationToken cancel, Consumer<ToolOutput> onUpdate) {
            return ToolResult.text("run " + runs.incrementAndGet());
        }
    }

    /** An anthropic-messages provider whose replies stream the queued texts; a text ending in "|" is cut there. */
    static final class CuttingProvider implements Provider {
        static final Model MODEL = new Model("cut-1", "Cut", "anthropic-messages", "cutter", "http://unused", false,
                List.of("text"), Model.Cost.FREE, 200_000, 8_192);
        final Deque<String> replies = new ArrayDeque<>();
        final List<List<AgentMessage>> contexts = new CopyOnWriteArrayList<>();

        CuttingProvider(String... replies) {
            this.replies.addAll(List.of(replies));
        }

        @Override
        public String api() {
            return MODEL.api();
        }

        @Override
        public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
            contexts.add(request.messages());
            String text = replies.removeFirst();
            AssistantMessageBuilder reply = new AssistantMessageBuilder(request.model(), 0, listener);
            int index = reply.startText();
            boolean cut = text.endsWith("|");
            reply.textDelta(index, cut ? text.substring(0, text.length() - 1) : text);
            return cut ? reply.fail(new ProviderError("Stream terminated before message_stop", null,
                    ErrorTypes.STREAM_TRUNCATED, null, null)) : reply.finish(StopReason.STOP);
        }
    }

    @Test
    void cutTextIsContinuedByPrefillAndMergedIntoOneReplyEvenWhenCutAgain() {
        CuttingProvider provider = new CuttingProvider("The answer is |", " 4|", "2.");
        harness = SessionHarness.builder(dir).provider(provider, CuttingProvider.MODEL).credentials("cutter", "k")
                .build();
        CompletableFuture<Void> done = harness.session.prompt("answer?");
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
        harness.scheduler.advance(2000);
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(4000L)));
        harness.scheduler.advance(4000);
        await().until(done::isDone);

        // each continuation request ends with the kept text (prefill), trailing whitespace trimmed
        AgentMessage second = provider.contexts.get(1).get(provider.contexts.get(1).size() - 1);
        assertEquals("The answer is", ((AgentMessage.Assistant) second).text());
        AgentMessage third = provider.contexts.get(2).get(provider.contexts.get(2).size() - 1);
        assertEquals("The answer is 4", ((AgentMessage.Assistant) third).text());
        assertEquals(List.of(new ResumedFrom(13, 0), new ResumedFrom(15, 0)),
                harness.events(AgentEvent.AutoRetryStart.class).stream().map(AgentEvent.AutoRetryStart::resumedFrom)
                        .toList());
        List<AgentMessage> messages = harness.session.messages();
        assertEquals(2, messages.size(), messages.toString());
        AgentMessage.Assistant reply = (AgentMessage.Assistant) messages.get(1);
        assertEquals("The answer is 42.", reply.text());
        assertEquals(StopReason.STOP, reply.stopReason());
        List<AgentEvent.MessageEnd> ends = harness.events(AgentEvent.MessageEnd.class);
        assertEquals(reply, ends.get(ends.size() - 1).message(), "the last message_end carries the one reply");
    }

    @Test
    void aModelThatThinksDoesNotGetAPrefillAndTheTurnIsAskedAgain() {
        Model thinking = new Model("cut-think", "Cut thinking", "anthropic-messages", "cutter", "http://unused", true,
                List.of("text"), Model.Cost.FREE, 200_000, 8_192);
        CuttingProvider provider = new CuttingProvider("The answer is |", "The answer is 42.");
        harness = SessionHarness.builder(dir).provider(provider, thinking).credentials("cutter", "k").build();
        harness.session.models().setThinkingLevel(ThinkingLevel.MEDIUM);
        CompletableFuture<Void> done = harness.session.prompt("answer?");
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
        harness.scheduler.advance(2000);
        await().until(done::isDone);

        assertNull(harness.events(AgentEvent.AutoRetryStart.class).get(0).resumedFrom());
        List<AgentMessage> second = provider.contexts.get(1);
        assertEquals(1, second.size(), "the retry asks the turn again: " + second);
        assertEquals("The answer is 42.", harness.session.lastAssistantText().orElseThrow());
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    private static FauxStep cutAfterCall() {
        FauxStep.ToolCallSpec call = new FauxStep.ToolCallSpec("call_1", "count", Json.mapper().createObjectNode());
        return new FauxStep(null, "Counting.", null, call, null, CUT, 503, null, null, null, null, null, null);
    }

    private CompletableFuture<Void> promptThroughOneRetry() {
        CompletableFuture<Void> done = harness.session.prompt("count once");
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
        harness.scheduler.advance(2000);
        await().until(done::isDone);
        return done;
    }

    @Test
    void aCompleteToolCallOfACutReplyRunsOnceAndIsNotAskedForAgain() {
        harness = SessionHarness.builder(dir).tool(tool).build();
        harness.enqueue(cutAfterCall(), FauxStep.text("Counted once."));
        promptThroughOneRetry();

        assertEquals(1, tool.runs.get(), "the kept call runs once");
        assertEquals(2, harness.faux.requestCount(), "the cut request and the one after the call's result");
        AgentEvent.AutoRetryStart start = harness.events(AgentEvent.AutoRetryStart.class).get(0);
        assertEquals(new ResumedFrom(9, 1), start.resumedFrom());
        List<AgentMessage> messages = harness.session.messages();
        assertEquals(4, messages.size(), messages.toString());
        AgentMessage.Assistant kept = (AgentMessage.Assistant) messages.get(1);
        assertEquals(StopReason.TOOL_USE, kept.stopReason());
        assertEquals("Counting.", kept.text());
        assertEquals(List.of("call_1"), kept.toolCalls().stream().map(ContentBlock.ToolCall::id).toList());
        assertEquals("call_1", ((AgentMessage.ToolResult) messages.get(2)).toolCallId());
        assertEquals("Counted once.", ((AgentMessage.Assistant) messages.get(3)).text());
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(true, 1, null)),
                harness.events(AgentEvent.AutoRetryEnd.class));
    }

    @Test
    void aChainCancelledAfterKeepingCallsIsRetriedManuallyByRunningThemOnce() {
        harness = SessionHarness.builder(dir).tool(tool).build();
        harness.enqueue(cutAfterCall(), FauxStep.text("Counted once."));
        CompletableFuture<Void> done = harness.session.prompt("count once");
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
        harness.session.abortRetry();
        await().until(done::isDone);
        assertEquals(2, harness.session.messages().size(), "the kept reply stays in the failed one's place");

        PromptTicket ticket = harness.session.retry();
        ticket.launch(() -> { });
        await().until(ticket.done()::isDone);
        assertEquals(false, ticket.done().isCompletedExceptionally());
        assertEquals(1, tool.runs.get());
        assertEquals(2, harness.faux.requestCount());
        assertEquals("Counted once.", harness.session.lastAssistantText().orElseThrow());
    }

    @Test
    void withKeepPartialOffTheTurnIsAskedAgainAndNothingIsKept() throws Exception {
        harness = SessionHarness.builder(dir).tool(tool).build();
        harness.settings.set("retry.keepPartial", BooleanNode.FALSE);
        harness.enqueue(cutAfterCall(), FauxStep.text("Asked again."));
        promptThroughOneRetry();

        assertEquals(0, tool.runs.get(), "the cut reply's call is dropped with it");
        assertNull(harness.events(AgentEvent.AutoRetryStart.class).get(0).resumedFrom());
        List<AgentMessage> messages = harness.session.messages();
        assertEquals(2, messages.size(), messages.toString());
        assertEquals("Asked again.", ((AgentMessage.Assistant) messages.get(1)).text());
    }

    @Test
    void textAloneOnAnApiWithoutPrefillIsDroppedAsBefore() {
        harness = SessionHarness.builder(dir).tool(tool).build();
        harness.enqueue(new FauxStep(null, "Half a sent", null, null, null, CUT, 503, null, null, null, null, null,
                null), FauxStep.text("Whole sentence."));
        promptThroughOneRetry();

        assertNull(harness.events(AgentEvent.AutoRetryStart.class).get(0).resumedFrom());
        assertEquals(2, harness.session.messages().size());
    }
}
