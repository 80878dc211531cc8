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
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
