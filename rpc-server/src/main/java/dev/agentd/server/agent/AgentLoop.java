package dev.agentd.server.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolRegistry;
import dev.agentd.server.tools.ToolResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the agent (pi's agent loop, SPEC §4): stream a reply; run its tool calls (concurrently
 * unless the schedule says otherwise, see {@link ToolSchedule}); deliver steering after the batch;
 * loop while tools were called or steering is pending; then deliver follow-ups as new turns.
 * Emits every event of the run except {@code agent_end}, which the session emits once recovery
 * has decided whether the run continues. Runs on the session's run thread only.
 */
public final class AgentLoop {
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
    private final LongSupplier monotonicMs;
    private final BooleanSupplier sequentialTools;
    private final Executor toolExecutor;

    /** Runs the calls of a reply concurrently on a shared pool of daemon threads. */
    public AgentLoop(Conversation conversation, MessageQueues queues, Supplier<ToolRegistry> tools, Streamer streamer,
            Consumer<AgentEvent> emit, BooleanSupplier wantsPartials, LongSupplier clock) {
        this(conversation, queues, tools, streamer, emit, wantsPartials, clock, () -> false, ToolThreads.POOL);
    }

    /** The pool the short constructor uses. */
    public static Executor sharedToolThreads() {
        return ToolThreads.POOL;
    }

    /** Times tool executions on {@code clock}: for tests whose clock is fake. */
    public AgentLoop(Conversation conversation, MessageQueues queues, Supplier<ToolRegistry> tools, Streamer streamer,
            Consumer<AgentEvent> emit, BooleanSupplier wantsPartials, LongSupplier clock,
            BooleanSupplier sequentialTools, Executor toolExecutor) {
        this(conversation, queues, tools, streamer, emit, wantsPartials, clock, clock, sequentialTools, toolExecutor);
    }

    /**
     * @param clock wall-clock epoch milliseconds, for message timestamps
     * @param monotonicMs the scheduler's monotonic milliseconds, for {@code tool_execution_end.durationMs}
     * @param sequentialTools read at each batch: the {@code toolExecution:"sequential"} setting
     * @param toolExecutor runs concurrent calls; must not run them on the calling thread
     */
    public AgentLoop(Conversation conversation, MessageQueues queues, Supplier<ToolRegistry> tools, Streamer streamer,
            Consumer<AgentEvent> emit, BooleanSupplier wantsPartials, LongSupplier clock, LongSupplier monotonicMs,
            BooleanSupplier sequentialTools, Executor toolExecutor) {
        this.monotonicMs = monotonicMs;
        this.sequentialTools = sequentialTools;
        this.toolExecutor = toolExecutor;
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
        // Tools still on their way (MCP servers starting) are waited for, within their bound.
        tools.get().awaitReady(cancel);
        boolean firstTurn = true;
        AgentMessage.Assistant last = null;
        // A retry that kept a cut reply's complete tool calls runs them instead of asking again (SPEC §5.9).
        // Steering polled meanwhile waits for that batch, as steering always waits for a batch.
        AgentMessage.Assistant kept = prompts.isEmpty()
                ? PartialReply.unansweredCalls(conversation.keptAtEnd()).orElse(null) : null;
        List<AgentMessage> heldBack = new ArrayList<>();
        while (true) {
            boolean toolsCalled;
            do {
                if (!firstTurn) {
                    emit.accept(new AgentEvent.TurnStart());
                    if (!pending.isEmpty()) {
                        queues.reportDelivered(); // pi 1.6: the queue shrinks inside the turn that delivers
                    }
                }
                firstTurn = false;
                Set<String> completed = new HashSet<>();
                if (kept != null) {
                    heldBack.addAll(pending);
                    last = kept;
                    kept = null;
                } else {
                    for (AgentMessage message : pending) {
                        deliver(message, added);
                    }
                    last = streamReply(cancel, completed);
                    added.add(last);
                }
                if (last.stopReason().failed()) {
                    emit.accept(new AgentEvent.TurnEnd(last, List.of()));
                    return new RunOutcome(added, last, completed);
                }
                List<ContentBlock.ToolCall> calls = last.toolCalls();
                toolsCalled = !calls.isEmpty();
                List<AgentMessage.ToolResult> results = toolsCalled ? runTools(calls, cancel) : List.of();
                added.addAll(results);
                emit.accept(new AgentEvent.TurnEnd(last, results));
                pending = queues.takeSteering();
                if (!heldBack.isEmpty()) {
                    heldBack.addAll(pending);
                    pending = List.copyOf(heldBack);
                    heldBack.clear();
                }
            } while (toolsCalled || !pending.isEmpty());
            List<AgentMessage.User> followUps = queues.takeFollowUp();
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

    /**
     * Streams one reply, noting in {@code completed} the tool calls whose block ended. A context that
     * ends with a kept text reply is continued (prefill): the continuation replaces it with one
     * merged reply, which its {@code message_end} carries (SPEC §5.9).
     */
    private AgentMessage.Assistant streamReply(CancellationToken cancel, Set<String> completed) {
        AgentMessage.Assistant prefill = PartialReply.prefill(conversation.keptAtEnd()).orElse(null);
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
            public void onEvent(AssistantMessageEvent event, Usage usage) {
                if ("toolcall_end".equals(event.type()) && event.toolCall() != null) {
                    completed.add(event.toolCall().id());
                }
                // pi 1.x's delta form carries the usage at top level; pi 0.73's full form, in its partial
                emit.accept(new AgentEvent.MessageUpdate(event.partial(), event, partials ? null : usage));
            }
        };
        AgentMessage.Assistant reply = streamer.stream(conversation.snapshot(), listener, cancel);
        if (!started[0]) {
            // Providers that fail before the reply starts (an HTTP error) never reported a start.
            emit.accept(new AgentEvent.MessageStart(reply));
        }
        if (prefill != null && !reply.stopReason().failed()) {
            reply = PartialReply.merge(prefill, reply);
            AgentMessage.Assistant replaced = prefill;
            conversation.removeLastIf(message -> message == replaced);
        }
        conversation.append(reply);
        emit.accept(new AgentEvent.MessageEnd(reply));
        return reply;
    }

    /**
     * Runs one reply's calls as {@link ToolSchedule} allows: {@code tool_execution_start} in call
     * order (a call whose predecessors are still running holds back the later starts),
     * {@code tool_execution_end} in completion order, result messages in call order once all ended;
     * a serial batch emits each result message right after its call's end.
     * Steering that arrives meanwhile waits for the batch; no call is skipped (SPEC §4).
     */
    private List<AgentMessage.ToolResult> runTools(List<ContentBlock.ToolCall> calls, CancellationToken cancel) {
        ToolRegistry registry = tools.get();
        List<ToolSchedule.Traits> traits = calls.stream().map(call -> registry.find(call.name())
                .map(tool -> new ToolSchedule.Traits(tool.sequentialOnly(), tool.writeTarget(call.arguments())))
                .orElse(new ToolSchedule.Traits(false, Optional.empty()))).toList();
        ToolSchedule schedule = ToolSchedule.plan(traits, sequentialTools.getAsBoolean());
        List<AgentMessage.ToolResult> results = new ArrayList<>();
        if (schedule.serial()) {
            // one at a time, as before pi 0.73: each result message follows its own end
            for (ContentBlock.ToolCall call : calls) {
                emit.accept(new AgentEvent.ToolExecutionStart(call.id(), call.name(), call.arguments()));
                Execution execution = execute(registry, call, cancel, emit);
                emitEnd(call, execution, emit);
                results.add(appendResult(call, execution.result()));
            }
            return results;
        }
        ToolResult[] outcomes = new ToolResult[calls.size()];
        runConcurrently(registry, calls, schedule, outcomes, cancel);
        for (int i = 0; i < calls.size(); i++) {
            results.add(appendResult(calls.get(i), outcomes[i]));
        }
        return results;
    }

    private AgentMessage.ToolResult appendResult(ContentBlock.ToolCall call, ToolResult result) {
        AgentMessage.ToolResult message = new AgentMessage.ToolResult(call.id(), call.name(), result.content(),
                result.details(), result.isError(), clock.getAsLong());
        emit.accept(new AgentEvent.MessageStart(message));
        conversation.append(message);
        emit.accept(new AgentEvent.MessageEnd(message));
        return message;
    }

    private record Completion(int index, Execution execution) {
    }

    /** A call's result and how long the tool ran ({@code durationMs} null: it did not run). */
    private record Execution(ToolResult result, Long durationMs) {
        static Execution notRun(ToolResult result) {
            return new Execution(result, null);
        }
    }

    private void runConcurrently(ToolRegistry registry, List<ContentBlock.ToolCall> calls, ToolSchedule schedule,
            ToolResult[] outcomes, CancellationToken cancel) {
        // Workers emit their updates through this lock, so listeners never see two events at once.
        Object lock = new Object();
        Consumer<AgentEvent> locked = event -> {
            synchronized (lock) {
                emit.accept(event);
            }
        };
        BlockingQueue<Completion> completions = new LinkedBlockingQueue<>();
        Set<Integer> ended = new HashSet<>();
        boolean interrupted = false;
        for (int i = 0; i <= calls.size(); i++) {
            Set<Integer> waitFor = i < calls.size() ? schedule.waitsFor().get(i) : allIndices(calls.size());
            while (!ended.containsAll(waitFor)) {
                Completion done;
                try {
                    done = completions.take();
                } catch (InterruptedException e) {
                    interrupted = true; // the calls still finish (abort cancels them); results must be kept
                    continue;
                }
                outcomes[done.index()] = done.execution().result();
                ended.add(done.index());
                emitEnd(calls.get(done.index()), done.execution(), locked);
            }
            if (i == calls.size()) {
                break;
            }
            ContentBlock.ToolCall call = calls.get(i);
            locked.accept(new AgentEvent.ToolExecutionStart(call.id(), call.name(), call.arguments()));
            int index = i;
            try {
                toolExecutor.execute(() -> completions.add(new Completion(index, execute(registry, call, cancel, locked))));
            } catch (RejectedExecutionException e) {
                completions.add(new Completion(index,
                        Execution.notRun(ToolResult.error("Tool " + call.name() + " could not start"))));
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static Set<Integer> allIndices(int size) {
        Set<Integer> all = new HashSet<>();
        for (int i = 0; i < size; i++) {
            all.add(i);
        }
        return all;
    }

    private void emitEnd(ContentBlock.ToolCall call, Execution execution, Consumer<AgentEvent> sink) {
        ToolResult result = execution.result();
        ToolOutput output = result.output();
        sink.accept(new AgentEvent.ToolExecutionEnd(call.id(), call.name(), output, result.isError(),
                execution.durationMs()));
    }

    /** Runs the call's tool, timed on the monotonic clock (a thrown failure still ran: it is timed). */
    private Execution execute(ToolRegistry registry, ContentBlock.ToolCall call, CancellationToken cancel,
            Consumer<AgentEvent> emit) {
        Tool tool = registry.find(call.name()).orElse(null);
        if (tool == null) {
            return Execution.notRun(ToolResult.error("Tool " + call.name() + " not found"));
        }
        long started = monotonicMs.getAsLong();
        ToolResult result = run(tool, call, cancel, emit);
        return new Execution(result, Math.max(0, monotonicMs.getAsLong() - started));
    }

    private static ToolResult run(Tool tool, ContentBlock.ToolCall call, CancellationToken cancel,
            Consumer<AgentEvent> emit) {
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
}
