package dev.agentd.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.WireTrees;
import dev.agentd.protocol.response.SessionState;
import dev.agentd.protocol.response.Response;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.agent.MessageQueues;
import dev.agentd.server.ai.faux.FauxScript;
import dev.agentd.server.commands.SlashCommands;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.session.PromptFailedException;
import dev.agentd.server.session.PromptRejectedException;
import dev.agentd.server.session.PromptTicket;
import dev.agentd.server.sessionfile.EntrySnapshot;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Command → session call → response (SPEC §3.2–3.3), shared by both wire dialects. The id is
 * echoed on every response, including failures thrown by a handler (which name the command, not
 * {@code parse}). Handlers run on the reader thread and must not block: long operations return a
 * future and are answered when it completes.
 */
public final class CommandRouter {
    private static final Logger LOG = LoggerFactory.getLogger(CommandRouter.class);

    private final AgentSession session;
    private final FauxScript faux;
    private final Map<Class<? extends Command>, Function<Command, CompletionStage<?>>> handlers = new HashMap<>();

    private final PiExtras extras;

    public CommandRouter(AgentSession session, FauxScript faux) {
        this(session, faux, new PiExtras(SlashCommands.none(), Path.of("").toAbsolutePath()));
    }

    /** @param extras templates, skills and the export directory of pi 0.73's extra commands */
    public CommandRouter(AgentSession session, FauxScript faux, PiExtras extras) {
        this.session = session;
        this.faux = faux;
        this.extras = extras;
        register();
    }

    /** Handles one decoded command; {@code respond} receives its response(s) on whatever thread. */
    public void dispatch(String id, Command command, Consumer<Response> respond) {
        String name = command.type();
        if (command instanceof Command.ExtensionUiResponse) {
            return; // pi consumes dialog answers without a response; agentd opens no dialogs
        }
        if (command instanceof Command.Prompt prompt) {
            launch(id, name, () -> session.accept(extras.commands().expand(prompt.message()), prompt.images(),
                    prompt.streamingBehavior()), respond);
            return;
        }
        if (command instanceof Command.Retry) {
            launch(id, name, session::retry, respond); // answered as a prompt is (SPEC §5.8)
            return;
        }
        CompletionStage<?> result;
        try {
            result = command instanceof Command.Bash bash
                    ? session.bash(bash.command(), id) // its bash_execution_update events repeat the id (pi 1.x)
                    : handlers.get(command.getClass()).apply(command);
        } catch (RuntimeException e) {
            respond.accept(failure(id, name, e));
            return;
        }
        result.whenComplete((data, error) -> {
            if (error != null) {
                respond.accept(failure(id, name, error));
            } else {
                respond.accept(Response.ok(id, name, toData(data)));
            }
        });
    }

    /**
     * Answers once (SPEC §3.3): a refusal on the spot (empty, busy) or a preflight failure on the
     * run thread (model, credential) is the one {@code success:false}; otherwise the one
     * {@code success:true} goes out just before the run starts, so it precedes {@code agent_start}.
     */
    private void launch(String id, String name, Supplier<PromptTicket> accept, Consumer<Response> respond) {
        PromptTicket ticket;
        try {
            ticket = accept.get();
        } catch (RuntimeException e) {
            respond.accept(failure(id, name, e));
            return;
        }
        ticket.done().whenComplete((ignored, error) -> {
            Throwable cause = unwrap(error);
            if (cause instanceof PromptFailedException) {
                respond.accept(Response.failure(id, name, cause.getMessage()));
            }
        });
        String disposition = ticket.queued() ? Results.Disposition.QUEUED : Results.Disposition.STARTED;
        JsonNode data = toData(new Results.Disposition(disposition));
        ticket.launch(() -> respond.accept(Response.ok(id, name, data)));
    }

    private void register() {
        // pi 1.x's disposition: always queued here, agentd has no input handlers to consume a message
        on(Command.Steer.class, c -> queued(() -> session.steer(c.message(), c.images())));
        on(Command.FollowUp.class, c -> queued(() -> session.followUp(c.message(), c.images())));
        on(Command.Abort.class, c -> session.abort());
        on(Command.AbortRetry.class, c -> run(session::abortRetry));
        on(Command.NewSession.class, c -> session.newSession(c.parentSession())
                .thenApply(v -> new Results.Cancelled(false)));
        on(Command.SwitchSession.class, c -> session.switchSession(Path.of(c.sessionPath()))
                .thenApply(v -> new Results.Cancelled(false)));
        on(Command.Fork.class, c -> session.fork(c.entryId()).thenApply(text -> new Results.Fork(text, false)));
        on(Command.GetForkMessages.class, c -> done(new Results.ForkMessages(session.forkMessages())));
        on(Command.GetState.class, c -> done(session.state()));
        on(Command.GetMessages.class, c -> done(new Results.Messages(session.messages())));
        on(Command.SetModel.class, c -> done(session.models().set(c.provider(), c.modelId())));
        on(Command.CycleModel.class, c -> done(session.models().cycle().<Object>map(m -> m)
                .orElse(NullNode.getInstance())));
        on(Command.GetAvailableModels.class, c -> done(new Results.Models(session.models().available())));
        on(Command.SetThinkingLevel.class, c -> run(() -> session.models().setThinkingLevel(c.level())));
        on(Command.CycleThinkingLevel.class, c -> done(session.models().cycleThinkingLevel()
                .<Object>map(Results.Level::new).orElse(NullNode.getInstance())));
        on(Command.SetSteeringMode.class, c -> run(() -> session.settings().setSteeringMode(c.mode())));
        on(Command.SetFollowUpMode.class, c -> run(() -> session.settings().setFollowUpMode(c.mode())));
        on(Command.SetAutoRetry.class, c -> run(() -> session.settings().setAutoRetry(c.enabled(),
                !Boolean.FALSE.equals(c.persist()))));
        on(Command.GetRetrySettings.class, c -> done(retrySettings()));
        on(Command.SetRetrySettings.class, c -> {
            session.settings().setRetry(c.maxRetries(), c.baseDelayMs(), c.maxRetryDelayMs(),
                    !Boolean.FALSE.equals(c.persist()));
            return done(retrySettings());
        });
        on(Command.ClearQueue.class, c -> {
            MessageQueues.Cleared cleared = session.clearQueue();
            return done(new Results.ClearedQueues(cleared.steering(), cleared.followUp()));
        });
        on(Command.GetSessionStats.class, c -> done(session.stats()));
        on(Command.GetLastAssistantText.class, c -> done(new Results.LastAssistantText(
                session.lastAssistantText().orElse(null))));
        on(Command.SetSessionName.class, c -> run(() -> session.setSessionName(c.name())));
        on(Command.GetCommands.class, c -> done(new Results.Commands(extras.commands().list())));
        on(Command.ExportHtml.class, c -> done(new Results.ExportHtml(extras.export(session, c.outputPath()))));
        on(Command.Clone.class, c -> session.cloneSession().thenApply(v -> new Results.Cancelled(false)));
        on(Command.ExtensionUiResponse.class, c -> done(null));
        on(Command.GetAvailableThinkingLevels.class, c -> done(new Results.ThinkingLevels(
                session.models().availableThinkingLevels())));
        on(Command.GetEntries.class, c -> {
            EntrySnapshot snapshot = session.entries();
            return done(withLeaf("entries", snapshot.after(c.since()), snapshot.leafId()));
        });
        on(Command.GetTree.class, c -> {
            EntrySnapshot snapshot = session.entries();
            return done(withLeaf("tree", snapshot.tree(), snapshot.leafId()));
        });
        on(Command.FauxEnqueue.class, c -> done(new Results.FauxQueued(faux.enqueue(c.model(), c.steps()))));
        on(Command.SetEventOptions.class, c -> {
            session.setUpdateMode(c.updates());
            return done(new Results.EventOptions(c.updates()));
        });
        on(Command.SetAutoCompaction.class, c -> run(() -> session.settings().setAutoCompaction(c.enabled())));

        on(Command.Bash.class, c -> session.bash(c.command()));
        on(Command.AbortBash.class, c -> run(session::abortBash));
        on(Command.Compact.class, c -> session.compact(c.customInstructions()));
        on(Command.GetFallbackState.class, c -> done(session.fallback().state()));
        on(Command.SetFallbackChain.class, c -> done(session.fallback().setChain(c.key(), c.entries())));
        on(Command.RemoveFallbackChain.class, c -> done(session.fallback().removeChain(c.key())));
        on(Command.SetModelFallback.class, c -> run(() -> session.fallback().setEnabled(c.enabled())));
        on(Command.SetFallbackRevertPolicy.class, c -> run(() -> session.fallback().setRevertPolicy(c.policy())));

        for (Class<?> type : Command.class.getPermittedSubclasses()) {
            if (type != Command.Prompt.class && type != Command.Retry.class && !handlers.containsKey(type)) {
                throw new IllegalStateException("no handler for " + type.getSimpleName());
            }
        }
    }

    private Results.RetrySettings retrySettings() {
        var config = session.settings().retry();
        return new Results.RetrySettings(config.enabled(), config.maxRetries(), config.baseDelayMs(),
                config.maxRetryDelayMs(), config.maxAgentDelayMs());
    }

    @SuppressWarnings("unchecked")
    private <C extends Command> void on(Class<C> type, Function<C, CompletionStage<?>> handler) {
        handlers.put(type, command -> handler.apply((C) command));
    }

    private static CompletionStage<Object> done(Object data) {
        return CompletableFuture.completedFuture(data);
    }

    /**
     * {@code get_entries} / {@code get_tree} data ({@code Results.Entries}, {@code Results.Tree}) built
     * as a tree: {@code leafId} is written even when null, as pi does, and deep entry trees never pass
     * through the mapper's recursion.
     */
    private static ObjectNode withLeaf(String field, List<JsonNode> nodes, String leafId) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.putArray(field).addAll(nodes);
        data.put("leafId", leafId);
        return data;
    }

    private static CompletionStage<Object> queued(Runnable action) {
        action.run();
        return done(new Results.Disposition(Results.Disposition.QUEUED));
    }

    private static CompletionStage<Object> run(Runnable action) {
        action.run();
        return CompletableFuture.completedFuture(null);
    }

    private static JsonNode toData(Object data) {
        if (data == null) {
            return null;
        }
        if (data instanceof JsonNode node) {
            return node;
        }
        if (data instanceof SessionState state) {
            return WireTrees.state(state); // no ObjectMapper for a first get_state (start-up)
        }
        return Json.mapper().valueToTree(data);
    }

    private static Response failure(String id, String command, Throwable error) {
        Throwable cause = unwrap(error);
        boolean expected = cause instanceof IllegalArgumentException || cause instanceof IllegalStateException
                || cause instanceof UnsupportedOperationException || cause instanceof PromptRejectedException;
        if (!expected) {
            LOG.error("{} failed", command, cause);
        }
        String message = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
        return Response.failure(id, command, message);
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
