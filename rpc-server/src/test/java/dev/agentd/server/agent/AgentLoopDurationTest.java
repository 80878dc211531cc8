package dev.agentd.server.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.Replies;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolRegistry;
import dev.agentd.server.tools.ToolResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** pi 1.x: {@code tool_execution_end.durationMs} is the tool's run time on the monotonic clock. */
class AgentLoopDurationTest {

    /** Takes {@code ms} of fake time; moves the wall clock back meanwhile, which must not count. */
    private record Slow(String name, long ms, FakeScheduler scheduler) implements Tool {
        @Override
        public ToolDefinition definition() {
            return new ToolDefinition(name, "slow", Json.mapper().createObjectNode());
        }

        @Override
        public ToolResult execute(String id, JsonNode arguments, CancellationToken cancel, Consumer<ToolOutput> onUpdate) {
            scheduler.setWallClock(scheduler.now() - 60_000);
            scheduler.advance(ms);
            return ToolResult.text("slept");
        }
    }

    @Test
    void aToolTaking1500MsOfMonotonicTimeReports1500() {
        FakeScheduler scheduler = new FakeScheduler();
        List<AgentEvent.ToolExecutionEnd> ends = run(scheduler, List.of(new Slow("slow", 1500, scheduler)),
                call("c1", "slow"));
        assertEquals(1, ends.size());
        assertEquals(1500L, ends.get(0).durationMs());
        JsonNode wire = Json.mapper().valueToTree(ends.get(0));
        assertEquals(1500, wire.path("durationMs").asLong());
    }

    @Test
    void concurrentCallsAreEachTimed() {
        FakeScheduler scheduler = new FakeScheduler();
        // A scheduler advanced from two threads stays consistent (advance is synchronized per step).
        List<AgentEvent.ToolExecutionEnd> ends = run(scheduler, List.of(new Slow("slow", 700, scheduler)),
                call("c1", "slow"), call("c2", "slow"));
        Map<String, Long> byId = ends.stream().collect(Collectors.toMap(AgentEvent.ToolExecutionEnd::toolCallId,
                AgentEvent.ToolExecutionEnd::durationMs));
        assertEquals(2, byId.size());
        byId.values().forEach(ms -> assertFalse(ms < 700, "each call ran at least its own 700 ms: " + byId));
    }

    @Test
    void anUnknownToolDidNotRunSoItHasNoDuration() {
        FakeScheduler scheduler = new FakeScheduler();
        List<AgentEvent.ToolExecutionEnd> ends = run(scheduler, List.of(), call("c1", "nope"));
        assertNull(ends.get(0).durationMs());
        assertFalse(Json.mapper().valueToTree(ends.get(0)).has("durationMs"), "absent on the wire");
    }

    private static ContentBlock.ToolCall call(String id, String tool) {
        return new ContentBlock.ToolCall(id, tool, Json.mapper().createObjectNode());
    }

    private static List<AgentEvent.ToolExecutionEnd> run(FakeScheduler scheduler, List<Tool> tools,
            ContentBlock.ToolCall... calls) {
        List<AgentEvent> events = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger replies = new AtomicInteger();
        AgentLoop.Streamer streamer = (context, listener, cancel) -> {
            boolean first = replies.getAndIncrement() == 0;
            List<ContentBlock> content = first ? List.of(calls) : List.of(new ContentBlock.Text("done"));
            return Replies.reply().content(content).at(2).stop(first ? StopReason.TOOL_USE : StopReason.STOP).build();
        };
        AgentLoop loop = new AgentLoop(new Conversation(), new MessageQueues(QueueMode.ONE_AT_A_TIME,
                QueueMode.ONE_AT_A_TIME), () -> new ToolRegistry(tools), streamer, events::add, () -> false,
                scheduler::now, scheduler::monotonicMs, () -> false, AgentLoop.sharedToolThreads());
        loop.run(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("go")), 1)), new CancellationToken());
        synchronized (events) {
            return events.stream().filter(AgentEvent.ToolExecutionEnd.class::isInstance)
                    .map(AgentEvent.ToolExecutionEnd.class::cast).toList();
        }
    }
}
