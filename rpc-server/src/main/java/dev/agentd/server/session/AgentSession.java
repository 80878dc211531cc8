package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import dev.agentd.protocol.response.Results;
import dev.agentd.protocol.response.SessionState;
import dev.agentd.server.agent.AgentLoop;
import dev.agentd.server.agent.Conversation;
import dev.agentd.server.agent.MessageQueues;
import dev.agentd.server.agent.RunOutcome;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.compaction.CompactionConfig;
import dev.agentd.server.compaction.CompactionException;
import dev.agentd.server.compaction.Summarizer;
import dev.agentd.server.compaction.TokenEstimate;
import dev.agentd.server.retry.OverflowDetector;
import dev.agentd.server.retry.RecoveryAction;
import dev.agentd.server.retry.RecoveryPolicy;
import dev.agentd.server.retry.RetryConfig;
import dev.agentd.server.retry.RunFacts;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.sessions.SessionEntry;
import dev.agentd.server.sessions.SessionFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent session: the single place where the agent loop, the recovery policy, the model
 * choice and the event stream are wired together (ARCHITECTURE "session").
 *
 * <p>Threads: commands call in from the RPC reader; runs execute on one run thread (the only one
 * that changes the conversation); retry sleeps run on the injected {@link Scheduler}. The
 * session's phase — idle, running, or waiting for a retry — is guarded by one lock; queries read
 * volatile fields and immutable snapshots and never wait for a run.
 *
 * <p>A prompt's <em>logical run</em> lasts from acceptance until the session is idle again: it
 * spans every retry of the prompt (SPEC §5.3: {@code prompt} completes only when the retry chain
 * it started has ended).
 */
public final class AgentSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);
    static final String BUSY = "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') "
            + "to queue the message.";

    private enum Phase { IDLE, RUNNING, WAITING_RETRY }

    private final SessionContext context;
    private final EventBus bus = new EventBus();
    private final Conversation conversation = new Conversation();
    private final MessageQueues queues;
    private final ModelControl models;
    private final AgentLoop loop;
    private final ProviderCalls calls;
    private final RecoveryPolicy policy = new RecoveryPolicy();
    /** The one thread that runs the agent and changes the conversation. */
    private final ExecutorService runThread = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "agentd-run");
        thread.setDaemon(true);
        return thread;
    });

    private final Object lock = new Object();
    private final RetryChain retry = new RetryChain(bus::publish);
    private Phase phase = Phase.IDLE;
    private CompletableFuture<Void> idle = CompletableFuture.completedFuture(null);
    private CancellationToken runToken;
    private Scheduler.Cancellable pendingRetry;
    private boolean retrySuppressed;

    private final SessionJournal journal;
    private final Compactor compactor;
    private final UserBash userBash;
    /** Finished RPC bash commands waiting to enter the context (before the next prompt). */
    private final java.util.concurrent.ConcurrentLinkedQueue<AgentMessage.BashExecution> pendingBash =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile UpdateMode updateMode;
    private volatile boolean compacting;
    /** An overflow was compacted since the last user message (run thread only). */
    private volatile boolean overflowRecoveryAttempted;

    /**
     * @param file the session file to continue (loaded) or start (new); its context becomes the
     *     working context and, for a loaded file, its last model and thinking level are restored
     */
    public AgentSession(SessionContext context, SessionFile file, Model initialModel, ThinkingLevel initialThinking,
            UpdateMode updateMode) {
        this.context = context;
        this.updateMode = updateMode;
        SessionDefaults defaults = new SessionDefaults(context.settings());
        this.queues = new MessageQueues(defaults.steeringMode(), defaults.followUpMode());
        this.journal = new SessionJournal(file, context.sessionPaths(), context.cwd(), context.scheduler()::now);
        this.models = new ModelControl(context, defaults, new ModelControl.Observer() {
            @Override
            public void modelChanged(Model model, ThinkingLevel thinkingLevel, String source) {
                journal.modelChanged(model, null);
                bus.publish(new AgentEvent.ModelChanged(model, thinkingLevel, source));
            }

            @Override
            public void thinkingChanged(ThinkingLevel thinkingLevel) {
                journal.thinkingChanged(thinkingLevel);
            }
        }, initialModel, initialThinking);
        this.calls = new ProviderCalls(context, models, this::sessionId);
        this.compactor = new Compactor(new Summarizer(calls::complete));
        this.userBash = new UserBash(context.cwd(), context.scheduler()::now, message -> {
            pendingBash.add(message);
            runThread.execute(this::flushBashIfIdle);
        });
        conversation.setJournal(journal);
        adopt(file, false);
        this.loop = new AgentLoop(conversation, queues, context::tools, calls::stream, this::emit,
                () -> this.updateMode == UpdateMode.FULL, context.scheduler()::now);
    }

    // --- events ------------------------------------------------------------------------------

    /** Adds an event listener; the returned action removes it. */
    public Runnable subscribe(Consumer<AgentEvent> listener) {
        return bus.subscribe(listener);
    }

    /**
     * Every event of a run passes here: published, then checked for the end of a retry chain and
     * for what resets the once-per-user-message overflow recovery.
     */
    private void emit(AgentEvent event) {
        bus.publish(event);
        if (event instanceof AgentEvent.MessageEnd end) {
            if (end.message() instanceof AgentMessage.User) {
                overflowRecoveryAttempted = false;
            } else if (end.message() instanceof AgentMessage.Assistant reply && !reply.stopReason().failed()) {
                synchronized (lock) {
                    retry.succeedIfOpen();
                }
                if (!OverflowDetector.isOverflow(reply, models.current().contextWindow())) {
                    overflowRecoveryAttempted = false;
                }
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
        CompletableFuture<Void> done = new CompletableFuture<>();
        CancellationToken token;
        synchronized (lock) {
            if (phase != Phase.IDLE) {
                if (behavior == null) {
                    throw new PromptRejectedException(BUSY);
                }
                enqueue(message, behavior);
                idle.whenComplete((ignored, error) -> done.complete(null));
                return new PromptTicket(done, () -> {}, true);
            }
            token = beginLogicalRun();
            idle.whenComplete((ignored, error) -> done.complete(null));
        }
        return new PromptTicket(done, () -> runThread.execute(() -> startPrompt(message, token, done)), false);
    }

    /** Accepts and launches a prompt at once (in-process callers). */
    public CompletableFuture<Void> prompt(String text) {
        PromptTicket ticket = accept(text, null, null);
        ticket.launch();
        return ticket.done();
    }

    public void steer(String text, List<ContentBlock.Image> images) {
        requireText(text);
        queues.steer(userMessage(text, images));
    }

    public void followUp(String text, List<ContentBlock.Image> images) {
        requireText(text);
        queues.followUp(userMessage(text, images));
    }

    public MessageQueues.Cleared clearQueue() {
        return queues.clear();
    }

    private void enqueue(AgentMessage.User message, StreamingBehavior behavior) {
        if (behavior == StreamingBehavior.STEER) {
            queues.steer(message);
        } else {
            queues.followUp(message);
        }
    }

    private CancellationToken beginLogicalRun() {
        phase = Phase.RUNNING;
        idle = new CompletableFuture<>();
        runToken = new CancellationToken();
        retrySuppressed = false;
        return runToken;
    }

    private void startPrompt(AgentMessage.User message, CancellationToken token, CompletableFuture<Void> done) {
        Optional<String> problem = calls.credentialProblem();
        if (problem.isPresent()) {
            done.completeExceptionally(new PromptFailedException(problem.get()));
            goIdle();
            return;
        }
        flushBash();
        execute(List.of(message), token);
    }

    // --- the RPC bash command -----------------------------------------------------------------

    /** {@code bash}: runs now, even while streaming; its output enters the next prompt's context. */
    public CompletableFuture<Results.Bash> bash(String command) {
        return userBash.run(command);
    }

    /** {@code abort_bash}: kills the running command(s) with their process trees. */
    public void abortBash() {
        userBash.abortAll();
    }

    /** Moves finished bash output into the context. Run thread only. */
    private void flushBash() {
        AgentMessage.BashExecution message;
        while ((message = pendingBash.poll()) != null) {
            conversation.append(message);
        }
    }

    private void flushBashIfIdle() {
        synchronized (lock) {
            if (phase != Phase.IDLE) {
                return;
            }
        }
        flushBash();
    }

    // --- the run and the one decision point --------------------------------------------------

    /** Runs the loop once, then lets the recovery policy decide what follows. Run thread only. */
    private void execute(List<AgentMessage> prompts, CancellationToken token) {
        try {
            RunOutcome outcome = loop.run(prompts, token);
            RecoveryAction action = decide(outcome);
            AgentEvent.AgentEnd end = new AgentEvent.AgentEnd(outcome.newMessages(), action.continuesRun());
            if (endsTheRun(action)) {
                // The last events and the return to idle happen together: a prompt sent the moment a
                // client sees them is accepted, never refused as "already processing".
                synchronized (lock) {
                    bus.publish(end);
                    apply(action, token);
                }
            } else {
                bus.publish(end);
                apply(action, token);
            }
        } catch (RuntimeException e) {
            LOG.error("run failed unexpectedly", e);
            synchronized (lock) {
                if (retry.isOpen()) {
                    retry.fail(retry.attempt(), "Internal error: " + e.getClass().getSimpleName());
                }
            }
            bus.publish(new AgentEvent.AgentEnd(List.of(), false));
            goIdle();
        }
    }

    private RecoveryAction decide(RunOutcome outcome) {
        RunFacts facts;
        long contextTokens = TokenEstimate.contextTokens(conversation.snapshot());
        synchronized (lock) {
            facts = new RunFacts(outcome.lastAssistant(), retry.attempt(), retryConfig(), retrySuppressed,
                    models.current().contextWindow(), compactionConfig(), contextTokens, overflowRecoveryAttempted);
        }
        return policy.decide(facts, retryAfterMs -> context.auth().markUsageLimitReached(
                models.current().provider(), sessionId(), retryAfterMs));
    }

    /** True when carrying out {@code action} is only events and the return to idle. */
    private static boolean endsTheRun(RecoveryAction action) {
        if (action instanceof RecoveryAction.GiveUp giveUp) {
            return endsTheRun(giveUp.then());
        }
        return action instanceof RecoveryAction.Finish || action instanceof RecoveryAction.CompactionFailed;
    }

    /** Carries out a recovery decision. Run thread only. */
    private void apply(RecoveryAction action, CancellationToken token) {
        if (action instanceof RecoveryAction.Finish) {
            goIdle();
        } else if (action instanceof RecoveryAction.GiveUp giveUp) {
            synchronized (lock) {
                retry.fail(giveUp.attempt(), giveUp.finalError());
            }
            apply(giveUp.then(), token);
        } else if (action instanceof RecoveryAction.Retry next) {
            scheduleRetry(next, token);
        } else if (action instanceof RecoveryAction.Compact compact) {
            autoCompact(compact, token);
        } else if (action instanceof RecoveryAction.CompactionFailed failed) {
            // pi reports a second overflow with an end event and no start
            bus.publish(new AgentEvent.AutoCompactionEnd(null, false, false, failed.errorMessage()));
            goIdle();
        }
    }

    /**
     * Automatic compaction (SPEC §8.2). After an overflow the failed reply leaves the context and the
     * run continues on the compacted context; after a threshold compaction the prompt is over
     * unless messages are queued.
     */
    private void autoCompact(RecoveryAction.Compact compact, CancellationToken token) {
        boolean overflow = compact.continuesRun();
        bus.publish(new AgentEvent.AutoCompactionStart(compact.reason()));
        if (overflow) {
            overflowRecoveryAttempted = true;
            conversation.removeLastIf(message -> message instanceof AgentMessage.Assistant);
        }
        CompactionResult result;
        compacting = true;
        try {
            result = compactor.compact(journal.file(), compactionConfig(), null, token);
        } catch (CompactionException e) {
            String prefix = overflow ? "Context overflow recovery failed: " : "Auto-compaction failed: ";
            boolean aborted = token.isCancelled();
            bus.publish(new AgentEvent.AutoCompactionEnd(null, aborted, false,
                    e.nothingToDo() || aborted ? null : prefix + e.getMessage()));
            goIdle();
            return;
        } finally {
            compacting = false;
        }
        conversation.replaceAll(journal.file().buildContext());
        boolean continueRun = overflow || queues.size() > 0;
        bus.publish(new AgentEvent.AutoCompactionEnd(result, false, overflow, null));
        if (continueRun && !token.isCancelled()) {
            runThread.execute(() -> execute(List.of(), token));
        } else {
            goIdle();
        }
    }

    /**
     * {@code compact}: aborts the run, then compacts now and returns the result (no
     * {@code auto_compaction_*} events).
     */
    public CompletableFuture<CompactionResult> compact(String customInstructions) {
        return abort().thenApplyAsync(ignored -> {
            compacting = true;
            try {
                CompactionResult result = compactor.compact(journal.file(), compactionConfig(), customInstructions,
                        CancellationToken.none());
                conversation.replaceAll(journal.file().buildContext());
                return result;
            } catch (CompactionException e) {
                throw new IllegalStateException(e.getMessage());
            } finally {
                compacting = false;
            }
        }, runThread);
    }

    private CompactionConfig compactionConfig() {
        return CompactionConfig.from(context.settings().current());
    }

    private void scheduleRetry(RecoveryAction.Retry next, CancellationToken token) {
        synchronized (lock) {
            retry.start(next.attempt(), retryConfig().maxRetries(), next.delayMs(), next.errorMessage());
            // The failed reply leaves the working context (it stays in the session file).
            conversation.removeLastIf(message -> message instanceof AgentMessage.Assistant reply
                    && reply.stopReason().failed());
            if (token.isCancelled()) {
                // abort arrived while the decision was being made: the retry never starts.
                retry.cancel();
                goIdleLocked();
                return;
            }
            phase = Phase.WAITING_RETRY;
            Scheduler.Cancellable[] handle = new Scheduler.Cancellable[1];
            handle[0] = context.scheduler().schedule(next.delayMs(), () -> wakeForRetry(handle[0], token));
            pendingRetry = handle[0];
        }
    }

    private void wakeForRetry(Scheduler.Cancellable handle, CancellationToken token) {
        synchronized (lock) {
            if (pendingRetry == null || pendingRetry != handle) {
                return;
            }
            pendingRetry = null;
            phase = Phase.RUNNING;
        }
        runThread.execute(() -> execute(List.of(), token));
    }

    private void goIdle() {
        synchronized (lock) {
            goIdleLocked();
        }
    }

    private void goIdleLocked() {
        phase = Phase.IDLE;
        runToken = null;
        pendingRetry = null;
        retrySuppressed = false;
        idle.complete(null);
    }

    // --- abort ------------------------------------------------------------------------------

    /**
     * Ends the retry chain: a pending backoff is cancelled at once ({@code auto_retry_end} with
     * {@code "Retry cancelled"}) and the logical run ends; if the retried attempt is already
     * streaming, the chain ends now and that attempt's outcome is final (it will not be retried).
     */
    public void abortRetry() {
        synchronized (lock) {
            if (phase == Phase.WAITING_RETRY && pendingRetry != null) {
                pendingRetry.cancel();
                pendingRetry = null;
                retry.cancel();
                goIdleLocked();
            } else if (retry.isOpen()) {
                retry.cancel();
                retrySuppressed = true;
            }
        }
    }

    /** Cancels a pending retry, then the stream and tools; completes once the session is idle. */
    public CompletableFuture<Void> abort() {
        abortRetry();
        CancellationToken token;
        CompletableFuture<Void> idleNow;
        synchronized (lock) {
            token = runToken;
            idleNow = idle;
        }
        if (token != null) {
            token.cancel();
        }
        return idleNow;
    }

    /** Completes when the session is next idle (at once if it is). */
    public CompletableFuture<Void> whenIdle() {
        synchronized (lock) {
            return idle;
        }
    }

    /** Aborts, then runs {@code change} on the run thread while nothing else runs. */
    CompletableFuture<Void> whileIdle(Runnable change) {
        return abort().thenRunAsync(change, runThread);
    }

    // --- session-level commands --------------------------------------------------------------

    /** {@code new_session}: aborts the run, then starts a new (lazily written) session file. */
    public CompletableFuture<Void> newSession(String parentSession) {
        return whileIdle(() -> adopt(journal.startNew(parentSession), true));
    }

    /** {@code switch_session}: aborts the run, then continues the session stored in {@code path}. */
    public CompletableFuture<Void> switchSession(Path path) {
        return whileIdle(() -> adopt(journal.open(path), false));
    }

    /**
     * {@code fork}: aborts the run, then continues in a new session holding the history before the
     * user message {@code entryId}; returns that message's text.
     */
    public CompletableFuture<String> fork(String entryId) {
        return abort().thenApplyAsync(ignored -> {
            String text = journal.fork(entryId);
            adopt(journal.file(), false);
            return text;
        }, runThread);
    }

    public List<Results.ForkMessage> forkMessages() {
        return journal.forkMessages();
    }

    /** Makes {@code file} the session's file: its context, its model (when resumed), no retry chain. */
    private void adopt(SessionFile file, boolean fresh) {
        conversation.replaceAll(file.buildContext());
        synchronized (lock) {
            retry.reset();
        }
        if (file.entries().isEmpty()) {
            journal.modelChanged(models.current(), null);
            journal.thinkingChanged(models.thinkingLevel());
        } else if (!fresh) {
            Model saved = file.latest(SessionEntry.ModelChange.class)
                    .flatMap(change -> context.models().find(change.provider(), change.modelId())).orElse(null);
            ThinkingLevel savedThinking = file.latest(SessionEntry.ThinkingLevelChange.class)
                    .flatMap(change -> ThinkingLevel.parse(change.thinkingLevel())).orElse(null);
            models.restore(saved, savedThinking);
        }
    }

    public void setSessionName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("Session name cannot be empty");
        }
        journal.file().appendSessionInfo(name.trim());
    }

    public void setUpdateMode(UpdateMode mode) {
        this.updateMode = mode;
    }

    public UpdateMode updateMode() {
        return updateMode;
    }

    public ModelControl models() {
        return models;
    }

    public List<AgentMessage> messages() {
        return conversation.snapshot();
    }

    public String sessionId() {
        return journal.file().header().id();
    }

    /** The session file's path, null with --no-session. */
    public String sessionFile() {
        return journal.pathText();
    }

    public void setSteeringMode(QueueMode mode) {
        queues.setSteeringMode(mode);
        context.persist("steeringMode", mode.wire());
    }

    public void setFollowUpMode(QueueMode mode) {
        queues.setFollowUpMode(mode);
        context.persist("followUpMode", mode.wire());
    }

    /** {@code set_auto_compaction}: takes effect now and is persisted to the global settings. */
    public void setAutoCompaction(boolean enabled) {
        context.persist("compaction.enabled", enabled);
    }

    // --- retry settings ----------------------------------------------------------------------

    public RetryConfig retryConfig() {
        return RetryConfig.from(context.settings().current());
    }

    /** {@code set_auto_retry}: takes effect now and is persisted to the global settings. */
    public void setAutoRetry(boolean enabled) {
        context.persist("retry.enabled", enabled);
    }

    /** {@code set_retry_settings}: validates every given value first, then persists them. */
    public RetryConfig setRetrySettings(Integer maxRetries, Long baseDelayMs, Long maxRetryDelayMs) {
        if (maxRetries != null && (maxRetries < 0 || maxRetries > RetryConfig.MAX_RETRIES_LIMIT)) {
            throw new IllegalArgumentException("maxRetries must be between 0 and " + RetryConfig.MAX_RETRIES_LIMIT);
        }
        checkDelay("baseDelayMs", baseDelayMs);
        checkDelay("maxRetryDelayMs", maxRetryDelayMs);
        if (maxRetries != null) {
            context.persist("retry.maxRetries", maxRetries);
        }
        if (baseDelayMs != null) {
            context.persist("retry.baseDelayMs", baseDelayMs);
        }
        if (maxRetryDelayMs != null) {
            context.persist("retry.maxRetryDelayMs", maxRetryDelayMs);
        }
        return retryConfig();
    }

    private static void checkDelay(String name, Long value) {
        if (value != null && (value < 0 || value > RetryConfig.MAX_DELAY_LIMIT)) {
            throw new IllegalArgumentException(name + " must be between 0 and " + RetryConfig.MAX_DELAY_LIMIT);
        }
    }

    // --- state ------------------------------------------------------------------------------

    public SessionState state() {
        Phase phaseNow;
        int attempt;
        synchronized (lock) {
            phaseNow = phase;
            attempt = retry.attempt();
        }
        List<AgentMessage> messages = conversation.snapshot();
        return new SessionState(models.current(), models.thinkingLevel(), phaseNow == Phase.RUNNING, compacting,
                queues.steeringMode(), queues.followUpMode(), journal.pathText(), sessionId(),
                journal.file().name().orElse(null),
                compactionConfig().enabled(), messages.size(), queues.size(),
                retryConfig().enabled(), attempt > 0, attempt);
    }

    public dev.agentd.protocol.response.SessionStats stats() {
        return Stats.of(conversation.snapshot(), journal.pathText(), sessionId());
    }

    /** The text of the last assistant message that has any. */
    public Optional<String> lastAssistantText() {
        List<AgentMessage> messages = conversation.snapshot();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof AgentMessage.Assistant reply && !reply.text().isEmpty()) {
                return Optional.of(reply.text());
            }
        }
        return Optional.empty();
    }

    private AgentMessage.User userMessage(String text, List<ContentBlock.Image> images) {
        List<ContentBlock> content = new ArrayList<>();
        content.add(new ContentBlock.Text(text));
        if (images != null) {
            content.addAll(images);
        }
        return new AgentMessage.User(content, context.scheduler().now());
    }

    private static void requireText(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("Message must not be empty");
        }
    }

    @Override
    public void close() {
        abort();
        userBash.close();
        runThread.shutdown();
    }
}
