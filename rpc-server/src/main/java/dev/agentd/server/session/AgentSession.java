package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import dev.agentd.protocol.response.McpServerStatus;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.protocol.response.Results;
import dev.agentd.protocol.response.RetryState;
import dev.agentd.protocol.response.SessionState;
import dev.agentd.protocol.response.SessionStats;
import dev.agentd.server.agent.AgentLoop;
import dev.agentd.server.agent.Conversation;
import dev.agentd.server.agent.MessageQueues;
import dev.agentd.server.agent.RunOutcome;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.ai.Reroute;
import dev.agentd.server.compaction.CompactionException;
import dev.agentd.server.fallback.control.FallbackCommands;
import dev.agentd.server.fallback.control.FallbackServices;
import dev.agentd.server.fallback.control.FallbackWiring;
import dev.agentd.server.fallback.control.SessionFallback;
import dev.agentd.server.quota.QuotaBook;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.RateLimitWait;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.sessionfile.EntrySnapshot;
import dev.agentd.server.sessionfile.SessionFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * One agent session: the single place where the agent loop, the recovery decision, the model
 * choice, the session file and the event stream are wired together (docs/ARCHITECTURE.md §5).
 *
 * <p>Threads: commands call in from the RPC reader; runs execute on one run thread (the only one
 * that changes the conversation); retry sleeps run on the injected scheduler. The phase and the
 * retry chain live in {@link RunControl}; what follows each run is decided and carried out by
 * {@link Recovery}. Queries read immutable snapshots and never wait for a run.
 */
public final class AgentSession implements AutoCloseable {
    static final String BUSY = "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') "
            + "to queue the message.";
    static final String RETRY_BUSY = "Agent is already processing: retry re-runs a failed turn once the session is idle";
    static final String NOTHING_TO_RETRY = "Nothing to retry: the last turn did not end with an error";

    private final SessionContext context;
    private final EventBus bus = new EventBus();
    private final Conversation conversation = new Conversation();
    private final MessageQueues queues;
    private final SettingsControl settings;
    private volatile List<String> startupWarnings = List.of();
    /** The session's tool servers (MCP) as {@code get_state} lists them; set once by the wiring. */
    private volatile ToolServers toolServers = ToolServers.NONE;
    private final ModelControl models;
    private final SessionJournal journal;
    private final ProviderCalls calls;
    private final Compactor compactor;
    private final RunControl control;
    private final Recovery recovery;
    private final SessionFallback fallback;
    private final AgentLoop loop;
    private final UserBash userBash;
    private final SessionFiles files;
    /** The one thread that runs the agent and changes the conversation. */
    private final ExecutorService runThread = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "agentd-run");
        thread.setDaemon(true);
        return thread;
    });
    private volatile UpdateMode updateMode;
    /** Set before the shutdown's abort: a resume at reset it cancels stays armed in the file. */
    private volatile boolean shuttingDown;
    /** What the providers' rate-limit headers said, per selector (issue 27 point 4). */
    private final QuotaBook quota = new QuotaBook(bus::publish);

    /**
     * @param file the session file to continue (loaded) or start (new); its context becomes the
     *     working context and, for a loaded file, its last model and thinking level are restored
     * @param fallbackServices the process's model-fallback switches and debug log (FALLBACK §1, §7)
     */
    public AgentSession(SessionContext context, SessionFile file, Model initialModel, ThinkingLevel initialThinking,
            UpdateMode updateMode, FallbackServices fallbackServices) {
        this.context = context;
        this.updateMode = updateMode;
        SessionDefaults defaults = new SessionDefaults(context.settings());
        this.queues = new MessageQueues(defaults.steeringMode(), defaults.followUpMode(), bus::publish);
        this.settings = new SettingsControl(context, queues);
        this.journal = new SessionJournal(file, context.sessionPaths(), context.cwd(), context.scheduler()::now);
        this.models = new ModelControl(context, defaults, initialModel, initialThinking);
        this.calls = new ProviderCalls(context, models, this::sessionId, quota);
        this.fallback = SessionFallback.create(new FallbackWiring(context.scheduler(), context.settings()::current,
                context.random(), context.models(), context.availability(), bus::publish, calls::probe, this::sessionId, runThread,
                fallbackServices, selector -> quota.utilization(selector, context.scheduler().now())), models, context.settings(), context::persist);
        // The recorder first: a switch is journalled and announced before fallback reacts to it.
        models.addObserver(new ModelChangeRecorder(journal, bus));
        models.addObserver(new FallbackObserver(fallback.boundary()));
        this.compactor = new Compactor(new SummaryRetries(calls, settings, models, context.scheduler(), bus::publish));
        this.control = new RunControl(bus::publish, context.scheduler(),
                aborted -> bus.publish(new AgentEvent.AgentSettled(aborted)));
        this.recovery = new Recovery(control, bus, conversation, queues, journal, compactor,
                new RecoveryFacts(settings, models, context.auth(), this::sessionId, fallback.onRunEnd(), context.random()),
                fallback, token -> runThread.execute(() -> execute(List.of(), token)), this::resumeCancelled);
        this.loop = new AgentLoop(conversation, queues, context::tools, calls::stream, this::emit,
                () -> this.updateMode == UpdateMode.FULL, context.scheduler()::now, context.scheduler()::monotonicMs,
                defaults::sequentialTools, AgentLoop.sharedToolThreads());
        this.userBash = new UserBash(context.cwd(), context.scheduler()::now,
                () -> runThread.execute(this::flushBashIfIdle));
        conversation.setJournal(journal);
        this.files = new SessionFiles(context, journal, conversation, control, fallback.boundary(), models, bus);
        files.adopt(file, false);
    }

    // --- events ------------------------------------------------------------------------------

    /** Adds an event listener; the returned action removes it. */
    public Runnable subscribe(Consumer<AgentEvent> listener) {
        return bus.subscribe(listener);
    }

    /** Every event of a run passes here: published, then shown to recovery (chain end, overflow resets). */
    private void emit(AgentEvent event) {
        if (event instanceof AgentEvent.MessageEnd end && end.message() instanceof AgentMessage.Assistant reply) {
            // once per reply, before its end: the client knows who answered when it reads the reply
            Reroute.of(reply).ifPresent(reroute -> bus.publish(
                    new AgentEvent.ModelRerouted(reroute.requested(), reroute.responded(), null)));
        }
        bus.publish(event);
        if (event instanceof AgentEvent.MessageEnd end) {
            if (end.message() instanceof AgentMessage.User) {
                recovery.userMessageDelivered();
                fallback.boundary().resetTurn();
            } else if (end.message() instanceof AgentMessage.Assistant reply && !reply.stopReason().failed()) {
                recovery.replySucceeded(reply);
            }
        }
    }

    // --- prompting ---------------------------------------------------------------------------

    /**
     * Accepts a prompt. When idle it becomes a new run (started by {@link PromptTicket#launch()});
     * when busy it is queued as steering or follow-up if {@code behavior} says so, else refused.
     *
     * @throws PromptRejectedException when refused on the spot (nothing changes)
     */
    public PromptTicket accept(String text, List<ContentBlock.Image> images, StreamingBehavior behavior) {
        if (text == null || text.isBlank()) {
            throw new PromptRejectedException("Message must not be empty");
        }
        AgentMessage.User message = userMessage(text, images);
        RunControl.Start start = control.startOrElse(() -> {
            if (behavior == null) {
                throw new PromptRejectedException(BUSY);
            }
            if (behavior == StreamingBehavior.STEER) {
                queues.steer(message);
            } else {
                queues.followUp(message);
            }
        });
        CompletableFuture<Void> done = new CompletableFuture<>();
        start.end().whenComplete((ignored, error) -> done.complete(null));
        if (start.token() == null) {
            return new PromptTicket(done, Runnable::run, true);
        }
        return new PromptTicket(done, onAccepted -> runThread.execute(
                () -> startPrompt(message, start.token(), done, onAccepted)), false);
    }

    /** Accepts and launches a prompt at once (in-process callers). */
    public CompletableFuture<Void> prompt(String text) {
        PromptTicket ticket = accept(text, null, null);
        ticket.launch(() -> {});
        return ticket.done();
    }

    public void steer(String text, List<ContentBlock.Image> images) {
        queues.steer(userMessage(requireText(text), images));
    }

    public void followUp(String text, List<ContentBlock.Image> images) {
        queues.followUp(userMessage(requireText(text), images));
    }

    public MessageQueues.Cleared clearQueue() {
        return queues.clear();
    }

    /**
     * {@code retry}: re-runs the last turn when it ended in an error (SPEC §5.8), on the current
     * model, as a fresh run with no new prompt (one request, then the normal retry and fallback
     * policy). Refused on the spot while a run is in progress; the rest is checked on the run
     * thread, where nothing else changes the conversation, and a refusal completes the ticket's
     * {@code done} with {@link PromptFailedException} (one answer, as for a prompt).
     *
     * @throws PromptRejectedException when a run (or a retry sleep) is in progress
     */
    public PromptTicket retry() {
        RunControl.Start start = control.startOrElse(() -> {
            throw new PromptRejectedException(RETRY_BUSY);
        });
        CompletableFuture<Void> done = new CompletableFuture<>();
        start.end().whenComplete((ignored, error) -> done.complete(null));
        return new PromptTicket(done, onAccepted -> runThread.execute(
                () -> startRetry(start.token(), done, onAccepted)), false);
    }

    /** The retry's preflight (a failed last turn, the credential), then the run. Run thread only. */
    private void startRetry(CancellationToken token, CompletableFuture<Void> done, Runnable onAccepted) {
        try {
            // A chain cancelled after keeping a cut reply (SPEC §5.9) left its calls or text to continue.
            boolean retryable = FailedTurn.retryable(conversation.snapshot()) || conversation.keptAtEnd().isPresent();
            Optional<String> problem = retryable ? calls.credentialProblem() : Optional.of(NOTHING_TO_RETRY);
            if (problem.isPresent()) {
                control.finishUnstarted(() -> done.completeExceptionally(new PromptFailedException(problem.get())));
                return;
            }
            onAccepted.run();
            // As an automatic retry does: the failed reply leaves the working context, stays in the file.
            conversation.removeLastIf(FailedTurn::isErrorReply);
            fallback.boundary().beforeAttempt();
        } catch (Throwable e) {
            recovery.crashed(token, e, false);
            return;
        }
        execute(List.of(), token);
    }

    /** The preflight's second half (model, credential), then the run. Run thread only. */
    private void startPrompt(AgentMessage.User message, CancellationToken token, CompletableFuture<Void> done,
            Runnable onAccepted) {
        try {
            Optional<String> problem = calls.credentialProblem();
            if (problem.isPresent()) {
                // Reported while returning to idle, so the session is idle once a client sees the failure.
                control.finishUnstarted(() -> done.completeExceptionally(new PromptFailedException(problem.get())));
                return;
            }
            onAccepted.run();
            flushBash();
            fallback.boundary().beforeAttempt();
        } catch (Throwable e) {
            recovery.crashed(token, e, false);
            return;
        }
        execute(List.of(message), token);
    }

    /**
     * Runs the loop once and lets recovery conclude. Any throwable, an {@code Error} included, ends
     * the run through {@link Recovery#crashed} instead of leaving the session busy. Run thread only.
     */
    private void execute(List<AgentMessage> prompts, CancellationToken token) {
        RunOutcome outcome;
        try {
            outcome = loop.run(prompts, token);
        } catch (Throwable e) {
            recovery.crashed(token, e, false);
            return;
        }
        recovery.conclude(outcome, token);
    }

    /**
     * Re-arms the resume at reset the session file's active path ends in (FALLBACK §11), after a
     * restart ({@code --continue}, ACP {@code session/load}): announces {@code retry_resume_scheduled}
     * again and waits for what is left of it — nothing when the reset has passed — then continues
     * the turn. Call once the client receives events. False when there is none, or a run started.
     */
    public boolean rearmResume() {
        Optional<ResumeEntry> pending = ResumeEntry.pending(journal.file());
        if (pending.isEmpty()) {
            return false;
        }
        RunControl.Start start = control.startOrElse(() -> {});
        if (start.token() == null) {
            return false;
        }
        ResumeEntry resume = pending.get();
        long waitMs = Math.max(0, resume.resumeAt() - control.wallNowMs());
        CancellationToken token = start.token();
        control.scheduleRetry(resume.attempt(), resume.maxAttempts(), waitMs, resume.errorMessage(),
                RateLimitWait.NONE, token,
                () -> bus.publish(new AgentEvent.RetryResumeScheduled(resume.selector(), resume.resumeAt(), waitMs,
                        resume.reason())),
                () -> runThread.execute(() -> {
                    fallback.boundary().beforeAttempt();
                    execute(List.of(), token);
                }),
                this::resumeCancelled);
        return true;
    }

    /**
     * A resume at reset was cancelled: recorded so a restart does not re-arm it — unless the
     * daemon is shutting down, whose abort is no user's cancel (the wait survives the restart).
     */
    private void resumeCancelled() {
        if (!shuttingDown) {
            ResumeEntry.appendCancelled(journal.file());
        }
    }

    /**
     * The daemon is stopping: the abort that follows keeps a scheduled resume at reset in the
     * session file, so {@code --continue} re-arms it (FALLBACK §11).
     */
    public void shuttingDown() {
        shuttingDown = true;
    }

    // --- abort -------------------------------------------------------------------------------

    /** See {@link RunControl#abortRetry()}. */
    public void abortRetry() {
        control.abortRetry();
    }

    /** Cancels a pending retry, then the stream and tools; completes once the session is idle. */
    public CompletableFuture<Void> abort() {
        return control.abort();
    }

    // --- the RPC bash command -----------------------------------------------------------------

    /** {@code bash}: runs now, even while streaming; its output enters the next prompt's context. */
    public CompletableFuture<Results.Bash> bash(String command) {
        return bash(command, null);
    }

    /** As above, its output also streamed as {@code bash_execution_update}s repeating {@code requestId} (pi 1.x). */
    public CompletableFuture<Results.Bash> bash(String command, String requestId) {
        return userBash.run(command, delta -> bus.publish(new AgentEvent.BashExecutionUpdate(requestId, delta)));
    }

    /** {@code abort_bash}: kills the running command(s) with their process trees. */
    public void abortBash() {
        userBash.abortAll();
    }

    /** Moves finished bash output into the context. Run thread only. */
    private void flushBash() {
        userBash.drain(conversation::append);
    }

    private void flushBashIfIdle() {
        if (control.isIdle()) {
            flushBash();
        }
    }

    // --- compaction and session files -----------------------------------------------------------

    /** {@code compact}: aborts the run, then compacts now (with its {@code manual} events) and returns the result. */
    public CompletableFuture<CompactionResult> compact(String customInstructions) {
        return abort().thenApplyAsync(ignored -> {
            try {
                return recovery.compactManually(settings.compaction(), customInstructions);
            } catch (CompactionException e) {
                throw new IllegalStateException(e.getMessage());
            }
        }, runThread);
    }

    /** {@code new_session}: aborts the run, then starts a new (lazily written) session file. */
    public CompletableFuture<Void> newSession(String parentSession) {
        return abort().thenRunAsync(() -> files.startNew(parentSession), runThread);
    }

    /** {@code switch_session}: aborts the run, then continues the session stored in {@code path}. */
    public CompletableFuture<Void> switchSession(Path path) {
        return abort().thenRunAsync(() -> files.open(path), runThread);
    }

    /**
     * {@code fork}: aborts the run, then continues in a new session holding the history before the
     * user message {@code entryId}; returns that message's text.
     */
    public CompletableFuture<String> fork(String entryId) {
        return abort().thenApplyAsync(ignored -> files.fork(entryId), runThread);
    }

    /** {@code clone}: aborts the run, then continues in a new session holding the whole current branch. */
    public CompletableFuture<Void> cloneSession() {
        return abort().thenRunAsync(files::cloneCurrent, runThread);
    }

    /**
     * ACP's {@code session/fork}: the current branch copied into a new session file, which another
     * session may open; this one goes on unchanged (no abort). Null without session storage or
     * before the first answer.
     */
    public Path copyBranch() {
        return journal.copyBranch();
    }

    /** The file's entries and leaf at one instant ({@code get_entries}, {@code get_tree}); in memory with --no-session. */
    public EntrySnapshot entries() {
        return journal.file().snapshot();
    }

    public List<Results.ForkMessage> forkMessages() {
        return journal.forkMessages();
    }

    /** {@code set_session_name}: recorded in the session file and announced as {@code session_info_changed}. */
    public void setSessionName(String name) {
        files.name(requireText(name, "Session name cannot be empty").trim());
    }

    // --- accessors and state ----------------------------------------------------------------

    public void setUpdateMode(UpdateMode mode) {
        this.updateMode = mode;
    }

    public ModelControl models() {
        return models;
    }

    public SettingsControl settings() {
        return settings;
    }

    /** The model-fallback commands (FALLBACK §9). */
    public FallbackCommands fallback() {
        return fallback.commands();
    }

    public List<AgentMessage> messages() {
        return conversation.snapshot();
    }

    /** The whole conversation as it happened (compacted messages and summaries included), for a transcript. */
    public List<AgentMessage> transcript() {
        return journal.file().transcript();
    }

    public String sessionId() {
        return journal.file().header().id();
    }

    /** The session file's path, null with --no-session. */
    public String sessionFile() {
        return journal.pathText();
    }

    /** The latest rate-limit figures of {@code selector}'s replies, or null when none carried any. */
    public RateLimits rateLimits(String selector) {
        return quota.latest(selector);
    }

    public SessionState state() {
        int attempt = control.retryAttempt();
        ModelChoice choice = models.choice();
        return new SessionState(choice.model(), choice.effective(), control.isStreaming(),
                recovery.compacting(), queues.steeringMode(), queues.followUpMode(), journal.pathText(), sessionId(),
                journal.file().name().orElse(null), settings.compaction().enabled(), conversation.snapshot().size(),
                queues.size(), settings.retry().enabled(), control.chainOpen(), attempt)
                .withWarnings(concat(startupWarnings, toolServers.warnings())).withMcpServers(toolServers.status())
                .withRateLimits(quota.snapshot()).withRetry(pendingResume());
    }

    /** A resume at reset being waited for: the file ends in it while the session sleeps (FALLBACK §11). */
    private RetryState pendingResume() {
        if (control.phase() != RunControl.Phase.WAITING_RETRY) {
            return null;
        }
        return ResumeEntry.pending(journal.file()).map(resume -> new RetryState(new RetryState.Resume(
                resume.selector(), resume.resumeAt(), Math.max(0, resume.resumeAt() - control.wallNowMs()),
                resume.reason()))).orElse(null);
    }

    /**
     * The classification of the last run's end, as the recovery decision made it: editors report a
     * failed turn with it ({@code errorKind}) instead of classifying again. Read it when
     * {@code agent_end} arrives: it is set just before.
     */
    public Classification lastRunClassification() {
        return recovery.lastClassification();
    }

    /**
     * The servers whose tools this session offers beyond the built-in ones (MCP), for {@code get_state};
     * closed with the session. Set once by the wiring.
     */
    public interface ToolServers extends AutoCloseable {
        ToolServers NONE = new ToolServers() {
            @Override
            public List<McpServerStatus> status() {
                return List.of();
            }

            @Override
            public List<String> warnings() {
                return List.of();
            }

            @Override
            public void close() {}
        };

        List<McpServerStatus> status();

        /** Servers that failed, a sentence each. */
        List<String> warnings();

        @Override
        void close();
    }

    public void attachToolServers(ToolServers servers) {
        this.toolServers = servers;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        if (b.isEmpty()) {
            return a;
        }
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** The configuration problems found at startup, reported by {@code get_state}; set once by the wiring. */
    public void reportStartupWarnings(List<String> warnings) {
        this.startupWarnings = List.copyOf(warnings);
    }

    public SessionStats stats() {
        return Stats.of(conversation.snapshot(), journal.pathText(), sessionId(), models.current().contextWindow());
    }

    /** The text of the last assistant message that has any. */
    public Optional<String> lastAssistantText() {
        return conversation.lastAssistantText();
    }

    private AgentMessage.User userMessage(String text, List<ContentBlock.Image> images) {
        List<ContentBlock> content = new ArrayList<>();
        content.add(new ContentBlock.Text(text));
        if (images != null) {
            content.addAll(images);
        }
        return new AgentMessage.User(content, context.scheduler().now());
    }

    private static String requireText(String text) {
        return requireText(text, "Message must not be empty");
    }

    private static String requireText(String text, String problem) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(problem);
        }
        return text;
    }

    @Override
    public void close() {
        shuttingDown = true;
        fallback.close();
        abort();
        userBash.close();
        runThread.shutdown();
        journal.close(); // the session file's lock: another process may open it now
        toolServers.close(); // after the run: no call is left waiting on a server
    }
}
