package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.model.UpdateMode;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent loop through the session: event order (SPEC §3.4), tools, queues, abort. */
class AgentRunTest {
    @TempDir
    Path dir;

    /** A tool that echoes its "text" argument, optionally blocking until released. */
    static final class EchoTool implements Tool {
        final CountDownLatch release;
        final CountDownLatch entered = new CountDownLatch(1);

        EchoTool(boolean block) {
            release = new CountDownLatch(block ? 1 : 0);
        }

        @Override
        public ToolDefinition definition() {
            return new ToolDefinition("echo", "echoes", Json.mapper().createObjectNode());
        }

        @Override
        public ToolResult execute(String id, JsonNode args, CancellationToken cancel, Consumer<ToolOutput> onUpdate)
                throws InterruptedException {
            entered.countDown();
            onUpdate.accept(new ToolOutput(List.of(new ContentBlock.Text("working")), null));
            release.await();
            return ToolResult.text("echo: " + args.path("text").asText());
        }
    }

    private static FauxStep toolCalls(String... texts) {
        List<FauxStep.ToolCallSpec> calls = java.util.Arrays.stream(texts)
                .map(text -> new FauxStep.ToolCallSpec(null, "echo", Json.mapper().createObjectNode().put("text", text)))
                .toList();
        return new FauxStep(null, null, null, null, calls, null, null, null, null, null, null, null, null);
    }

    @Test
    void plainAnswerEventsComeInPiOrder() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("Hello there, friend"));
            await().until(harness.session.prompt("hi")::isDone);
            List<String> types = harness.types();
            assertEquals(List.of("agent_start", "turn_start", "message_start", "message_end", "message_start",
                    "message_update"), types.subList(0, 6));
            // pi 1.6: agent_settled follows the run's last agent_end
            assertEquals(List.of("message_end", "turn_end", "agent_end", "agent_settled"),
                    types.subList(types.size() - 4, types.size()));
            List<AgentEvent.MessageUpdate> updates = harness.events(AgentEvent.MessageUpdate.class);
            assertEquals("text_start", updates.get(0).assistantMessageEvent().type());
            assertEquals("text_end", updates.get(updates.size() - 1).assistantMessageEvent().type());
            String streamed = updates.stream().map(u -> u.assistantMessageEvent().delta()).filter(d -> d != null)
                    .reduce("", String::concat);
            assertEquals("Hello there, friend", streamed);
            assertTrue(updates.stream().allMatch(u -> u.message() == null && u.assistantMessageEvent().partial() == null),
                    "delta mode (the harness default) builds no partial snapshots");
            AgentEvent.AgentEnd end = harness.events(AgentEvent.AgentEnd.class).get(0);
            assertEquals(2, end.messages().size());
            assertEquals(Boolean.FALSE, end.willRetry());
        }
    }

    @Test
    void fullUpdateModeCarriesThePartialInBothPlaces() {
        try (SessionHarness harness = SessionHarness.builder(dir).updateMode(UpdateMode.FULL).build()) {
            harness.enqueue(FauxStep.text("abc def ghi jkl mno"));
            await().until(harness.session.prompt("hi")::isDone);
            AgentEvent.MessageUpdate last = harness.events(AgentEvent.MessageUpdate.class).stream()
                    .filter(u -> u.assistantMessageEvent().type().equals("text_delta")).reduce((a, b) -> b).orElseThrow();
            assertEquals("abc def ghi jkl mno", ((AgentMessage.Assistant) last.message()).text());
            assertTrue(last.message() == last.assistantMessageEvent().partial());
        }
    }

    @Test
    void byDefaultATurnStartsEveryCallBeforeAnyResultMessage() {
        try (SessionHarness harness = SessionHarness.builder(dir).tool(new EchoTool(false)).build()) {
            harness.enqueue(toolCalls("one", "two"), FauxStep.text("done"));
            await().until(harness.session.prompt("use tools")::isDone);
            List<String> types = harness.types().stream().filter(t -> !t.equals("tool_execution_update")).toList();
            int toolStart = types.indexOf("tool_execution_start");
            assertEquals(List.of("tool_execution_start", "tool_execution_start"), types.subList(toolStart, toolStart + 2));
            assertEquals(List.of("tool_execution_end", "tool_execution_end", "message_start", "message_end",
                    "message_start", "message_end", "turn_end"), types.subList(toolStart + 2, toolStart + 9));
            AgentEvent.TurnEnd turn = harness.events(AgentEvent.TurnEnd.class).get(0);
            assertEquals(List.of("echo: one", "echo: two"), turn.toolResults().stream()
                    .map(r -> ((ContentBlock.Text) r.content().get(0)).text()).toList());
        }
    }

    @Test
    void withToolExecutionSequentialATurnRunsCallsOneByOneThenContinues() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("settings.json"), "{\"toolExecution\":\"sequential\"}");
        try (SessionHarness harness = SessionHarness.builder(dir).tool(new EchoTool(false)).build()) {
            harness.enqueue(toolCalls("one", "two"), FauxStep.text("done"));
            await().until(harness.session.prompt("use tools")::isDone);
            List<String> types = harness.types();
            int firstEnd = types.subList(4, types.size()).indexOf("message_end") + 4;
            List<String> expected = List.of("tool_execution_start", "tool_execution_update", "tool_execution_end",
                    "message_start", "message_end", "tool_execution_start", "tool_execution_update",
                    "tool_execution_end", "message_start", "message_end", "turn_end", "turn_start", "message_start");
            int toolStart = types.indexOf("tool_execution_start");
            assertEquals(expected, types.subList(toolStart, toolStart + expected.size()));
            assertTrue(firstEnd < toolStart);
            AgentEvent.TurnEnd turn = harness.events(AgentEvent.TurnEnd.class).get(0);
            assertEquals(List.of("echo: one", "echo: two"), turn.toolResults().stream()
                    .map(r -> ((ContentBlock.Text) r.content().get(0)).text()).toList());
            AgentEvent.AgentEnd end = harness.events(AgentEvent.AgentEnd.class).get(0);
            assertEquals(List.of("user", "assistant", "toolResult", "toolResult", "assistant"),
                    end.messages().stream().map(AgentMessage::role).toList());
        }
    }

    @Test
    void anUnknownToolYieldsAnErrorResult() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.toolCall("nope", Json.mapper().createObjectNode()), FauxStep.text("ok"));
            await().until(harness.session.prompt("go")::isDone);
            AgentEvent.ToolExecutionEnd end = harness.events(AgentEvent.ToolExecutionEnd.class).get(0);
            assertTrue(end.isError());
            assertEquals("Tool nope not found", ((ContentBlock.Text) end.result().content().get(0)).text());
        }
    }

    @Test
    void steeringDuringAToolWaitsForTheWholeBatchAndIsDeliveredNext() throws Exception {
        EchoTool tool = new EchoTool(true);
        try (SessionHarness harness = SessionHarness.builder(dir).tool(tool).build()) {
            harness.enqueue(toolCalls("one", "two", "three"), FauxStep.text("steered answer"));
            CompletableFuture<Void> done = harness.session.prompt("start");
            tool.entered.await();
            harness.session.steer("change of plan", null);
            tool.release.countDown();
            await().until(done::isDone);

            List<AgentEvent.ToolExecutionEnd> ends = harness.events(AgentEvent.ToolExecutionEnd.class);
            assertEquals(3, ends.size());
            assertEquals(java.util.Set.of("echo: one", "echo: two", "echo: three"), ends.stream()
                    .map(end -> ((ContentBlock.Text) end.result().content().get(0)).text())
                    .collect(java.util.stream.Collectors.toSet()));
            assertTrue(ends.stream().noneMatch(AgentEvent.ToolExecutionEnd::isError), "no call is skipped");
            List<AgentMessage> context = harness.session.messages();
            AgentMessage steering = context.get(context.size() - 2);
            assertEquals("change of plan", ((AgentMessage.User) steering).text());
            assertEquals("tool", context.get(context.size() - 3).role().substring(0, 4));
            assertEquals("steered answer", ((AgentMessage.Assistant) context.get(context.size() - 1)).text());
        }
    }

    @Test
    void followUpsWaitUntilTheAgentWouldStop() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("first").withDelayMs(1000), FauxStep.text("second"));
            CompletableFuture<Void> done = harness.session.prompt("one");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(1000L)));
            PromptTicket queued = harness.session.accept("two", null, StreamingBehavior.FOLLOW_UP);
            assertTrue(queued.queued());
            assertEquals(1, harness.session.state().pendingMessageCount());
            harness.scheduler.advance(1000);
            await().until(done::isDone);
            assertEquals(List.of("user", "assistant", "user", "assistant"),
                    harness.session.messages().stream().map(AgentMessage::role).toList());
            assertEquals(1, harness.events(AgentEvent.AgentEnd.class).size(), "one run delivers the follow-up");
            assertEquals(2, harness.events(AgentEvent.TurnStart.class).size());
        }
    }

    @Test
    void oneAtATimeDeliversOneSteeringMessagePerTurn() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("a").withDelayMs(100), FauxStep.text("b"), FauxStep.text("c"));
            CompletableFuture<Void> done = harness.session.prompt("go");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(100L)));
            harness.session.steer("s1", null);
            harness.session.steer("s2", null);
            harness.scheduler.advance(100);
            await().until(done::isDone);
            assertEquals(List.of("user", "assistant", "user", "assistant", "user", "assistant"),
                    harness.session.messages().stream().map(AgentMessage::role).toList());
        }
    }

    @Test
    void allModeDeliversEveryQueuedSteeringMessageInOneTurn() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.session.settings().setSteeringMode(dev.agentd.protocol.model.QueueMode.ALL);
            harness.enqueue(FauxStep.text("a").withDelayMs(100), FauxStep.text("b"));
            CompletableFuture<Void> done = harness.session.prompt("go");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(100L)));
            harness.session.steer("s1", null);
            harness.session.steer("s2", null);
            harness.scheduler.advance(100);
            await().until(done::isDone);
            assertEquals(List.of("user", "assistant", "user", "user", "assistant"),
                    harness.session.messages().stream().map(AgentMessage::role).toList());
        }
    }

    @Test
    void promptWhileBusyNeedsAStreamingBehaviorAndEmptyMessagesAreRefused() {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("slow").withDelayMs(1000));
            CompletableFuture<Void> done = harness.session.prompt("one");
            assertThrows(PromptRejectedException.class, () -> harness.session.prompt("two"));
            assertThrows(PromptRejectedException.class, () -> harness.session.accept(" ", null, null));
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(1000L)));
            harness.scheduler.advance(1000);
            await().until(done::isDone);
        }
    }

    @Test
    void abortMidStreamEndsWithAnAbortedMessage() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("a long reply that streams slowly").withChunkDelayMs(50));
            CompletableFuture<Void> done = harness.session.prompt("go");
            harness.awaitEvent(e -> e instanceof AgentEvent.MessageUpdate u
                    && "text_delta".equals(u.assistantMessageEvent().type()));
            harness.session.abort().get();
            assertTrue(done.isDone());
            AgentEvent.MessageEnd last = harness.events(AgentEvent.MessageEnd.class).stream().reduce((a, b) -> b)
                    .orElseThrow();
            AgentMessage.Assistant reply = (AgentMessage.Assistant) last.message();
            assertEquals(StopReason.ABORTED, reply.stopReason());
            assertEquals("Request was aborted", reply.errorMessage());
            assertEquals(List.of("turn_end", "agent_end", "agent_settled"),
                    harness.types().subList(harness.types().size() - 3, harness.types().size()));
            assertEquals(List.of(), harness.events(AgentEvent.AutoRetryStart.class));
        }
    }
}
