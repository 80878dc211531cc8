package dev.agentd.server.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import dev.agentd.server.testing.Replies;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolRegistry;
import dev.agentd.server.tools.ToolResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** SPEC §4: a reply's tool calls run concurrently unless the schedule serializes them. */
class AgentLoopToolBatchTest {
    /**
     * How long a call waits for another to end: long where the calls overlap (a loaded machine must
     * not turn "ok" into "alone"), short ({@link #CANNOT_OVERLAP}) where the test expects the wait to
     * run out because the other call cannot start first.
     */
    private static final long PATIENCE_MS = 30_000;
    private static final String[] CANNOT_OVERLAP = {"patienceMs", "300"};

    /**
     * Waits (bounded) until the end event of the call named in {@code after} has been emitted (not
     * merely its work done: that would race the other call's own end event); records overlapping calls.
     */
    static final class Probe implements Tool {
        final String name;
        final boolean sequentialOnly;
        final Map<String, CountDownLatch> finished = new ConcurrentHashMap<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();

        Probe(String name, boolean sequentialOnly) {
            this.name = name;
            this.sequentialOnly = sequentialOnly;
        }

        @Override
        public ToolDefinition definition() {
            return new ToolDefinition(name, "probe", Json.mapper().createObjectNode());
        }

        @Override
        public boolean sequentialOnly() {
            return sequentialOnly;
        }

        @Override
        public Optional<String> writeTarget(JsonNode arguments) {
            return arguments.hasNonNull("path") ? Optional.of(arguments.get("path").asText()) : Optional.empty();
        }

        CountDownLatch latch(String id) {
            return finished.computeIfAbsent(id, k -> new CountDownLatch(1));
        }

        @Override
        public ToolResult execute(String id, JsonNode args, CancellationToken cancel, Consumer<ToolOutput> onUpdate)
                throws InterruptedException {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                boolean waited = !args.hasNonNull("after")
                        || latch(args.get("after").asText()).await(args.path("patienceMs").asLong(PATIENCE_MS),
                                TimeUnit.MILLISECONDS);
                return ToolResult.text(id + (waited ? " ok" : " alone"));
            } finally {
                inFlight.decrementAndGet();
            }
        }
    }

    private record Run(List<AgentEvent> events, List<AgentMessage> added) {
        List<String> ids(Class<? extends AgentEvent> type) {
            List<String> ids = new ArrayList<>();
            for (AgentEvent event : events) {
                if (type.isInstance(event) && event instanceof AgentEvent.ToolExecutionStart start) {
                    ids.add(start.toolCallId());
                } else if (type.isInstance(event) && event instanceof AgentEvent.ToolExecutionEnd end) {
                    ids.add(end.toolCallId() + "=" + ((ContentBlock.Text) end.result().content().get(0)).text());
                }
            }
            return ids;
        }

        List<String> resultIds() {
            return added.stream().filter(m -> m instanceof AgentMessage.ToolResult)
                    .map(m -> ((AgentMessage.ToolResult) m).toolCallId()).toList();
        }
    }

    private static String[] with(String[] more, String... fields) {
        String[] all = java.util.Arrays.copyOf(fields, fields.length + more.length);
        System.arraycopy(more, 0, all, fields.length, more.length);
        return all;
    }

    private static ContentBlock.ToolCall call(String id, String tool, String... fields) {
        var args = Json.mapper().createObjectNode();
        for (int i = 0; i < fields.length; i += 2) {
            args.put(fields[i], fields[i + 1]);
        }
        return new ContentBlock.ToolCall(id, tool, args);
    }

    private static Run run(List<Tool> tools, boolean sequentialSetting, ContentBlock.ToolCall... calls) {
        List<AgentEvent> events = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger replies = new AtomicInteger();
        AgentLoop.Streamer streamer = (context, listener, cancel) -> {
            List<ContentBlock> content = replies.getAndIncrement() == 0 ? List.of(calls)
                    : List.of(new ContentBlock.Text("done"));
            return Replies.reply().content(content).at(2)
                    .stop(replies.get() == 1 ? StopReason.TOOL_USE : StopReason.STOP).build();
        };
        AgentLoop loop = new AgentLoop(new Conversation(), new MessageQueues(QueueMode.ONE_AT_A_TIME,
                QueueMode.ONE_AT_A_TIME), () -> new ToolRegistry(tools), streamer, event -> {
                    events.add(event);
                    if (event instanceof AgentEvent.ToolExecutionEnd end) {
                        tools.stream().filter(Probe.class::isInstance)
                                .forEach(tool -> ((Probe) tool).latch(end.toolCallId()).countDown());
                    }
                }, () -> false,
                () -> 3, () -> sequentialSetting, AgentLoop.sharedToolThreads());
        RunOutcome outcome = loop.run(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("go")), 1)),
                new CancellationToken());
        return new Run(List.copyOf(events), outcome.newMessages());
    }

    @Test
    void callsOverlapStartInCallOrderEndInCompletionOrderAndResultsKeepCallOrder() {
        Probe probe = new Probe("probe", false);
        // a can only finish after b has: it ends second although it started first
        Run run = run(List.of(probe), false, call("a", "probe", "after", "b"), call("b", "probe"));
        assertEquals(List.of("a", "b"), run.ids(AgentEvent.ToolExecutionStart.class));
        assertEquals(List.of("b=b ok", "a=a ok"), run.ids(AgentEvent.ToolExecutionEnd.class));
        assertEquals(List.of("a", "b"), run.resultIds());
    }

    @Test
    void theSequentialSettingRunsOneCallAtATime() {
        Probe probe = new Probe("probe", false);
        Run run = run(List.of(probe), true, call("a", "probe", with(CANNOT_OVERLAP, "after", "b")), call("b", "probe"));
        assertEquals(List.of("a=a alone", "b=b ok"), run.ids(AgentEvent.ToolExecutionEnd.class));
        assertEquals(1, probe.maxInFlight.get());
    }

    @Test
    void aSequentialOnlyToolMakesTheWholeBatchSequential() {
        Probe probe = new Probe("probe", false);
        Probe lonely = new Probe("lonely", true);
        Run run = run(List.of(probe, lonely), false, call("a", "probe", with(CANNOT_OVERLAP, "after", "b")),
                call("b", "lonely"));
        assertEquals(List.of("a=a alone", "b=b ok"), run.ids(AgentEvent.ToolExecutionEnd.class));
        assertEquals(List.of("a", "b"), run.resultIds());
    }

    @Test
    void twoCallsWritingTheSameFileNeverOverlapOthersStillDo() {
        Probe probe = new Probe("probe", false);
        Run run = run(List.of(probe), false, call("c", "probe", "path", "/y", "after", "a"),
                call("a", "probe", "path", "/x"), call("b", "probe", "path", "/x"));
        List<String> seen = new ArrayList<>();
        for (AgentEvent event : run.events()) {
            if (event instanceof AgentEvent.ToolExecutionStart start) {
                seen.add("start " + start.toolCallId());
            } else if (event instanceof AgentEvent.ToolExecutionEnd end) {
                seen.add("end " + end.toolCallId());
            }
        }
        // c (another file) overlaps a and sees it finish; b (a's file) starts only once a has ended
        assertTrue(seen.indexOf("end a") < seen.indexOf("start b"), seen.toString());
        assertTrue(run.ids(AgentEvent.ToolExecutionEnd.class).contains("c=c ok"));
        assertEquals(List.of("c", "a", "b"), run.ids(AgentEvent.ToolExecutionStart.class));
        assertEquals(List.of("c", "a", "b"), run.resultIds());
    }
}
