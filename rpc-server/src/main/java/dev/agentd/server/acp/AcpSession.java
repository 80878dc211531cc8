package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.commands.SlashCommands;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.session.PromptFailedException;
import dev.agentd.server.session.PromptRejectedException;
import dev.agentd.server.session.PromptTicket;
import dev.agentd.server.tools.FileAccess;
import dev.agentd.server.tools.Tool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * One ACP session over one {@link AgentSession} (its own run thread): its events become
 * {@code session/update}s through {@link UpdateMapper}, and each prompt gets exactly one answer —
 * a stop reason, or an error saying what failed ({@link PromptFailure}). It builds the agent
 * session's editor side (files, terminal, permission requests), which asks it for its id.
 */
final class AcpSession {
    /** Opens the agent session on the editor's files and with its tools decorated. */
    interface Opening {
        /** @param problems hears, later and from any thread, each MCP server that fails (a sentence) */
        AgentSession open(FileAccess files, UnaryOperator<List<Tool>> decorate, Consumer<String> problems)
                throws IOException;
    }

    /**
     * What the client offers and the user allows: files read and written through the editor, bash
     * in its terminal, a permission request before write, edit and bash.
     */
    record Editor(boolean reads, boolean writes, boolean terminal, boolean ask) {}

    private final AgentSession session;
    private final AcpConnection connection;
    private final Path cwd;
    private final boolean notices;
    /** The client advertised {@code session.compaction}. */
    private final boolean compaction;
    private final LongSupplier clock;
    /** The compaction under way (its start was sent), or null; touched by the run thread only. */
    private volatile String compactionId;
    private int compactions;
    /** The open retry chain's card (clients without notices), or null; touched by the run thread. */
    private volatile String retryCardId;
    private int retryCards;
    private final Map<String, JsonNode> toolArgs = new ConcurrentHashMap<>();
    private final AtomicReference<Turn> turn = new AtomicReference<>();
    private volatile AgentMessage.Assistant lastReply;
    /** The classification of the last run's end, as the recovery decision made it. */
    private volatile Classification lastFailure = Classification.of(ErrorClass.NONE);
    private volatile Runnable unsubscribe = () -> {};
    private final List<String> earlyProblems = new java.util.ArrayList<>();
    private boolean started;

    /** One prompt awaiting its answer. */
    private static final class Turn {
        final JsonNode requestId;
        final AtomicBoolean answered = new AtomicBoolean();
        volatile boolean cancelled;

        Turn(JsonNode requestId) {
            this.requestId = requestId;
        }
    }
    private final SlashCommands commands;
    /** The command list the client was last sent (guarded by this). */
    private ArrayNode shownCommands;
    private final String id;
    private final EditorTools tools;
    /** The reply being streamed's {@code messageId} (A3): each assistant message, retries included, gets its own. */
    private volatile String messageId;
    private int messages;

    /**
     * @param commands the prompt templates and skills: offered as slash commands, expanded in prompts
     * @param id the id the client knows it by (a stored session's listed id), or null for the session's own
     */
    AcpSession(Opening opening, Editor editor, AcpConnection connection, Path cwd, boolean notices,
            boolean compaction, LongSupplier clock, SlashCommands commands, String id) throws IOException {
        // The editor side asks for the id only when a tool runs, after this constructor.
        EditorFiles files = new EditorFiles(connection, this::id, editor.reads(), editor.writes());
        UnaryOperator<Tool> bash = editor.terminal() ? local -> new EditorTerminal(local, connection, this::id, cwd)
                : UnaryOperator.identity();
        EditorTools tools = new EditorTools(connection, this::id, cwd, editor.ask(), bash);
        this.tools = tools;
        this.session = opening.open(files, tools::decorate, this::toolServerProblem);
        this.id = id != null ? id : session.sessionId();
        this.commands = commands;
        this.connection = connection;
        this.cwd = cwd;
        this.notices = notices;
        this.compaction = compaction;
        this.clock = clock;
    }

    /** Starts forwarding events; call after the {@code session/new} answer is written. */
    void start() {
        unsubscribe = session.subscribe(this::onEvent);
        List<String> early;
        synchronized (earlyProblems) {
            started = true;
            early = List.copyOf(earlyProblems);
            earlyProblems.clear();
        }
        early.forEach(this::toolServerProblem);
    }

    /**
     * An MCP server that failed, as a notice: held until the client knows the session (it drops
     * updates for a session it has not been told of).
     */
    private void toolServerProblem(String problem) {
        synchronized (earlyProblems) {
            if (!started) {
                earlyProblems.add(problem);
                return;
            }
        }
        update(UpdateMapper.notice("warning", problem, AcpJson.object().put("agentd/mcpServer", true), notices));
    }

    String id() {
        return id;
    }

    AgentSession agent() {
        return session;
    }

    ArrayNode configOptions() {
        return ConfigOptions.of(session.models().available(), session.models().current(),
                session.models().thinkingLevel());
    }

    /** The updates {@code session/load} replays: the whole transcript, compacted messages included (A1). */
    List<ObjectNode> history() {
        return HistoryReplay.updates(session.transcript(), cwd, compaction);
    }

    /**
     * {@code available_commands_update} when the commands differ from those the client was last
     * sent (always the first time): checked when the session starts and at the end of each turn,
     * before its answer, so a template added meanwhile is offered for the next prompt.
     */
    synchronized void commandsChanged() {
        ArrayNode now = AvailableCommands.of(commands.list());
        if (!now.equals(shownCommands)) {
            shownCommands = now;
            update(AvailableCommands.update(now));
        }
    }

    void update(ObjectNode update) {
        ObjectNode params = AcpJson.object().put("sessionId", id());
        params.set("update", update);
        connection.notify("session/update", params);
    }

    private void onEvent(AgentEvent event) {
        if (event instanceof AgentEvent.MessageUpdate update && update.assistantMessageEvent() != null
                && update.assistantMessageEvent().toolCall() != null) {
            var call = update.assistantMessageEvent().toolCall();
            if (call.arguments() != null) {
                toolArgs.put(call.id(), call.arguments());
            }
        }
        if (event instanceof AgentEvent.MessageStart start && start.message() instanceof AgentMessage.Assistant) {
            messageId = "msg-" + clock.getAsLong() + "-" + ++messages;
        }
        if (event instanceof AgentEvent.MessageEnd end && end.message() instanceof AgentMessage.Assistant reply) {
            lastReply = reply;
        }
        if (event instanceof AgentEvent.AgentEnd) {
            // the decision classified the run's end just before announcing it: never classify again
            lastFailure = session.lastRunClassification();
        }
        Model model = session.models().current();
        AgentMessage.Assistant failed = lastReply;
        String errorClass = failed == null || failed.stopReason() != StopReason.ERROR ? null
                : lastFailure.errorClass().name().toLowerCase(Locale.ROOT);
        if (event instanceof AgentEvent.CompactionStart
                || event instanceof AgentEvent.CompactionEnd && compactionId == null) { // an end may have no start
            // unique within the session across connections too: a reload starts counting again
            compactionId = "compaction-" + clock.getAsLong() + "-" + ++compactions;
        }
        UpdateMapper.RetryCard card = retryCard(event);
        String errorKind = failed == null || failed.stopReason() != StopReason.ERROR ? null
                : PromptFailure.errorKind(lastFailure);
        UpdateMapper.View view = new UpdateMapper.View(notices, clock.getAsLong(), cwd, model.contextWindow(),
                errorClass, toolArgs::get, this::configOptions, compaction, compactionId, this::contextTokens,
                errorKind, card, messageId, tools::asksFirst, session::rateLimits);
        for (ObjectNode update : UpdateMapper.map(event, view)) {
            update(update);
        }
        if (event instanceof AgentEvent.AutoRetryEnd) {
            retryCardId = null;
        }
        if (event instanceof AgentEvent.CompactionEnd) {
            compactionId = null;
        }
        if (event instanceof AgentEvent.ToolExecutionEnd end) {
            toolArgs.remove(end.toolCallId());
        }
    }

    /** The retry card an event is shown on: a chain's first backoff opens one; its end closes it. */
    private UpdateMapper.RetryCard retryCard(AgentEvent event) {
        if (notices) {
            return null;
        }
        if (event instanceof AgentEvent.AutoRetryStart && retryCardId == null) {
            retryCardId = "agentd-retry-" + clock.getAsLong() + "-" + ++retryCards;
            return new UpdateMapper.RetryCard(retryCardId, true);
        }
        return retryCardId == null ? null : new UpdateMapper.RetryCard(retryCardId, false);
    }

    /** The session's estimate of the tokens in context (its stats' context usage). */
    private long contextTokens() {
        var usage = session.stats().contextUsage();
        return usage == null || usage.tokens() == null ? 0 : usage.tokens();
    }

    /** {@code session/prompt}: answered when the run is over (with every retry it caused). */
    void prompt(JsonNode requestId, JsonNode blocks) {
        PromptContent content;
        try {
            content = PromptContent.of(blocks);
        } catch (PromptContent.Invalid e) {
            connection.error(requestId, -32602, "Invalid params: " + e.getMessage(), null);
            return;
        }
        if (content.images().isEmpty() && CompactCommand.matches(content.text())) {
            compact(requestId, CompactCommand.instructions(content.text()));
            return;
        }
        String text = commands.expand(content.text());
        if (text.isBlank() && content.images().isEmpty()) {
            connection.error(requestId, -32602, "Invalid params: the prompt has no text, image or resource to send",
                    null);
            return;
        }
        // the first prompt of an unnamed session titles it, as a session list will (A8)
        boolean first = session.messages().isEmpty() && session.state().sessionName() == null;
        PromptTicket ticket;
        try {
            ticket = session.accept(text, content.images(), null);
        } catch (PromptRejectedException e) {
            // not empty (checked above), so busy; the session's own text names pi's queueing fields (A12)
            busy(requestId);
            return;
        }
        if (first) {
            update(AcpJson.update("session_info_update").put("title", SessionTitles.of(null, text)));
        }
        Turn current = new Turn(requestId);
        turn.set(current);
        lastReply = null;
        ticket.done().whenComplete((ignored, error) -> finish(current, error));
        ticket.launch(() -> {});
    }

    private void busy(JsonNode requestId) {
        connection.error(requestId, -32602, "Session is busy: the previous session/prompt has not been answered "
                + "yet; wait for its answer or send session/cancel", null);
    }

    /**
     * {@code /compact [instructions]}: agentd's manual compaction, answered {@code end_turn} when it
     * is done. Its progress is {@code compaction_update}s for a client that shows them, else one
     * line of the reply says what was done. Never while a prompt runs: compacting would abort it.
     */
    private void compact(JsonNode requestId, String instructions) {
        Turn current = new Turn(requestId);
        if (!turn.compareAndSet(null, current)) {
            busy(requestId);
            return;
        }
        lastReply = null;
        session.compact(instructions).whenComplete((result, error) -> {
            if (!current.answered.compareAndSet(false, true)) {
                return;
            }
            turn.compareAndSet(current, null);
            commandsChanged();
            if (current.cancelled) {
                stop(current, "cancelled");
            } else if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                connection.error(requestId, PromptFailure.INTERNAL_ERROR, "Compaction failed: "
                        + UpdateMapper.line(String.valueOf(cause.getMessage())), null);
            } else {
                if (!compaction) {
                    ObjectNode line = AcpJson.update("agent_message_chunk");
                    line.set("content", AcpJson.text(CompactCommand.done(result)));
                    update(line);
                }
                stop(current, "end_turn");
            }
        });
    }

    /** {@code session/cancel}: stops a backoff, the stream and tools; the prompt answers {@code cancelled}. */
    void cancel() {
        Turn current = turn.get();
        if (current == null || current.answered.get()) {
            return;
        }
        current.cancelled = true;
        session.abort().whenComplete((ignored, error) -> finish(current, null));
    }

    private void finish(Turn current, Throwable error) {
        if (!current.answered.compareAndSet(false, true)) {
            return;
        }
        turn.compareAndSet(current, null);
        commandsChanged();
        if (current.cancelled) {
            stopCancelled(current);
            return;
        }
        if (error != null) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null
                    ? error.getCause() : error;
            PromptFailure failure = cause instanceof PromptFailedException
                    ? PromptFailure.missingCredentials(cause.getMessage())
                    : new PromptFailure(PromptFailure.INTERNAL_ERROR, "Internal error: "
                            + cause.getClass().getSimpleName(), AcpJson.object().put("errorKind", "provider_error"));
            connection.error(current.requestId, failure.code(), failure.message(), failure.data());
            return;
        }
        AgentMessage.Assistant reply = lastReply;
        if (reply == null) {
            stop(current, "end_turn");
            return;
        }
        switch (reply.stopReason()) {
            case LENGTH -> stop(current, "max_tokens");
            case ABORTED -> stop(current, "cancelled");
            case ERROR -> {
                Classification classification = lastFailure;
                if (classification.errorClass() == ErrorClass.REFUSAL) {
                    stop(current, "refusal");
                    return;
                }
                PromptFailure failure = PromptFailure.of(classification, reply, clock.getAsLong());
                connection.error(current.requestId, failure.code(), failure.message(), failure.data());
            }
            default -> stop(current, "end_turn");
        }
    }

    /** Cancelled during a backoff: the failure being waited out rides along in {@code _meta}. */
    private void stopCancelled(Turn current) {
        ObjectNode result = AcpJson.object().put("stopReason", "cancelled");
        AgentMessage.Assistant reply = lastReply;
        if (reply != null && reply.stopReason() == StopReason.ERROR) {
            PromptFailure failure = PromptFailure.of(lastFailure, reply, clock.getAsLong());
            ObjectNode lastError = failure.data().deepCopy().put("message", failure.message());
            result.putObject("_meta").set("agentd/lastError", lastError);
        }
        connection.result(current.requestId, result);
    }

    private void stop(Turn current, String reason) {
        connection.result(current.requestId, AcpJson.object().put("stopReason", reason));
    }

    /** {@code session/close} and connection end: stops the run; completes once the session is released. */
    CompletableFuture<Void> close() {
        unsubscribe.run();
        cancel();
        return session.abort().handle((ignored, error) -> {
            session.close();
            return null;
        });
    }
}
