package dev.agentd.server.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolRegistry;
import dev.agentd.server.tools.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the agent (pi's agent loop, SPEC §4): stream a reply; run its tool calls in
 * order, polling steering after each (remaining calls are skipped when a steering message waits);
 * loop while tools were called or steering is pending; then deliver follow-ups as new turns.
 * Emits every event of the run except {@code agent_end}, which the session emits once recovery
 * has decided whether the run continues. Runs on the session's run thread only.
 */
public final class AgentLoop {
    public static final String SKIPPED = "Skipped due to queued user message.";
    private static final Logger LOG = LoggerFactory.getLogger(AgentLoop.class);

    /** Streams one assistant reply for the given context; never throws (see Provider). */
    @FunctionalInterface
    public interface Streamer {
        AgentMessage.Assistant stream(List<AgentMessage> context, StreamListener listener, CancellationToken cancel);
    }

    private final Conversation conversation;
    private final MessageQueues queues;
    private final Supplier<ToolRegistry> tools;
    private final Streamer streamer;
    private final Consumer<AgentEvent> emit;
    private final BooleanSupplier wantsPartials;
    private final LongSupplier clock;

    public AgentLoop(Conversation conversation, MessageQueues queues, Supplier<ToolRegistry> tools, Streamer streamer,
            Consumer<AgentEvent> emit, BooleanSupplier wantsPartials, LongSupplier clock) {
        this.conversation = conversation;
        this.queues = queues;
        this.tools = tools;
        this.streamer = streamer;
        this.emit = emit;
        this.wantsPartials = wantsPartials;
        this.clock = clock;
    }

    /** Runs with {@code prompts} as the new user input (empty for a retry or compaction continue). */
    public RunOutcome run(List<? extends AgentMessage> prompts, CancellationToken cancel) {
        List<AgentMessage> added = new ArrayList<>();
        emit.accept(new AgentEvent.AgentStart());
        emit.accept(new AgentEvent.TurnStart());
        for (AgentMessage prompt : prompts) {
            deliver(prompt, added);
        }
        List<? extends AgentMessage> pending = queues.pollSteering();
        boolean firstTurn = true;
        AgentMessage.Assistant last = null;
        while (true) {
            boolean toolsCalled;
            do {
                if (!firstTurn) {
                    emit.accept(new AgentEvent.TurnStart());
                }
                firstTurn = false;
                for (AgentMessage message : pending) {
                    deliver(message, added);
                }
                last = streamReply(cancel);
                added.add(last);
                if (last.stopReason().failed()) {
                    emit.accept(new AgentEvent.TurnEnd(last, List.of()));
                    return new RunOutcome(added, last);
                }
                List<ContentBlock.ToolCall> calls = last.toolCalls();
                toolsCalled = !calls.isEmpty();
                ToolBatch batch = toolsCalled ? runTools(calls, cancel) : ToolBatch.EMPTY;
                added.addAll(batch.results());
                emit.accept(new AgentEvent.TurnEnd(last, batch.results()));
                pending = batch.steering().isEmpty() ? queues.pollSteering() : batch.steering();
            } while (toolsCalled || !pending.isEmpty());
            List<AgentMessage.User> followUps = queues.pollFollowUp();
            if (followUps.isEmpty()) {
                return new RunOutcome(added, last);
            }
            pending = followUps;
        }
    }

    private void deliver(AgentMessage message, List<AgentMessage> added) {
        emit.accept(new AgentEvent.MessageStart(message));
        conversation.append(message); // persisted before message_end: what the client saw ended survives a kill
        emit.accept(new AgentEvent.MessageEnd(message));
        added.add(message);
    }

    private AgentMessage.Assistant streamReply(CancellationToken cancel) {
        boolean partials = wantsPartials.getAsBoolean();
        boolean[] started = {false};
        StreamListener listener = new StreamListener() {
            @Override
            public boolean wantsPartials() {
                return partials;
            }

            @Override
            public void onStart(AgentMessage.Assistant partial) {
                started[0] = true;
                emit.accept(new AgentEvent.MessageStart(partial));
            }

            @Override
            public void onEvent(AssistantMessageEvent event) {
                emit.accept(new AgentEvent.MessageUpdate(event.partial(), event));
            }
        };
        AgentMessage.Assistant reply = streamer.stream(conversation.snapshot(), listener, cancel);
        if (!started[0]) {
            // Providers that fail before the reply starts (an HTTP error) never reported a start.
            emit.accept(new AgentEvent.MessageStart(reply));
        }
        conversation.append(reply);
        emit.accept(new AgentEvent.MessageEnd(reply));
        return reply;
    }

    private record ToolBatch(List<AgentMessage.ToolResult> results, List<AgentMessage.User> steering) {
        static final ToolBatch EMPTY = new ToolBatch(List.of(), List.of());
    }

    /** Runs calls in order; after each, a waiting steering message skips the rest. */
    private ToolBatch runTools(List<ContentBlock.ToolCall> calls, CancellationToken cancel) {
        List<AgentMessage.ToolResult> results = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            ContentBlock.ToolCall call = calls.get(i);
            emit.accept(new AgentEvent.ToolExecutionStart(call.id(), call.name(), call.arguments()));
            results.add(finish(call, execute(call, cancel)));
            List<AgentMessage.User> steering = queues.pollSteering();
            if (!steering.isEmpty()) {
                for (ContentBlock.ToolCall skipped : calls.subList(i + 1, calls.size())) {
                    emit.accept(new AgentEvent.ToolExecutionStart(skipped.id(), skipped.name(), skipped.arguments()));
                    results.add(finish(skipped, ToolResult.error(SKIPPED)));
                }
                return new ToolBatch(results, steering);
            }
        }
        return new ToolBatch(results, List.of());
    }

    private ToolResult execute(ContentBlock.ToolCall call, CancellationToken cancel) {
        Tool tool = tools.get().find(call.name()).orElse(null);
        if (tool == null) {
            return ToolResult.error("Tool " + call.name() + " not found");
        }
        JsonNode args = call.arguments();
        try {
            return tool.execute(call.id(), args, cancel, partial ->
                    emit.accept(new AgentEvent.ToolExecutionUpdate(call.id(), call.name(), args, partial)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ToolResult.error("Tool " + call.name() + " was interrupted");
        } catch (Exception e) {
            LOG.debug("tool {} failed", call.name(), e);
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return ToolResult.error(message);
        } catch (Error e) {
            // A StackOverflowError (a regex on a long line) or an OutOfMemoryError (a huge file) ends
            // this call, not the run: the stack has unwound and the tool's garbage is collectable.
            LOG.warn("tool {} failed: {}", call.name(), e.toString());
            return ToolResult.error("Tool " + call.name() + " failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        }
    }

    private AgentMessage.ToolResult finish(ContentBlock.ToolCall call, ToolResult result) {
        ToolOutput output = result.output();
        emit.accept(new AgentEvent.ToolExecutionEnd(call.id(), call.name(), output, result.isError()));
        AgentMessage.ToolResult message = new AgentMessage.ToolResult(call.id(), call.name(), result.content(),
                result.details(), result.isError(), clock.getAsLong());
        emit.accept(new AgentEvent.MessageStart(message));
        conversation.append(message);
        emit.accept(new AgentEvent.MessageEnd(message));
        return message;
    }
}
