package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.event.ResumedFrom;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.agent.Conversation;
import dev.agentd.server.agent.MessageQueues;
import dev.agentd.server.agent.PartialReply;
import dev.agentd.server.agent.RunOutcome;
import dev.agentd.server.compaction.CompactionConfig;
import dev.agentd.server.compaction.CompactionException;
import dev.agentd.server.compaction.TokenEstimate;
import dev.agentd.server.fallback.control.FallbackSwitch;
import dev.agentd.server.fallback.control.SessionFallback;
import dev.agentd.server.fallback.control.TurnBoundary;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.OverflowDetector;
import dev.agentd.server.recovery.RateLimitWait;
import dev.agentd.server.recovery.RecoveryAction;
import dev.agentd.server.recovery.RecoveryPolicy;
import dev.agentd.server.recovery.RunFacts;
import dev.agentd.server.runtime.CancellationToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of every run (docs/ARCHITECTURE.md §4.1): takes one snapshot of the facts, asks
 * {@link RecoveryPolicy} for an action, emits {@code agent_end} with {@code willRetry}, and carries
 * the action out — a retry sleep, a credential switch, a compaction, or the return to idle. A run
 * that crashed ({@link #crashed}) ends here too. Run thread only, except for the chain state kept
 * in {@link RunControl}.
 */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);
    private static final String MANUAL = "manual";

    private final RecoveryPolicy policy = new RecoveryPolicy();
    private final RunControl control;
    private final EventBus bus;
    private final Conversation conversation;
    private final MessageQueues queues;
    private final SessionJournal journal;
    private final Compactor compactor;
    private final RecoveryFacts facts;
    private final FallbackSwitch fallback;
    private final Consumer<CancellationToken> continueRun;
    /** Records that a resume at reset was cancelled (skipped while the daemon shuts down). */
    private final Runnable resumeCancelled;
    private volatile boolean compacting;
    /** The classification of the last run's end, as its decision made it. */
    private volatile Classification lastClassification = Classification.of(ErrorClass.NONE);
    /** An overflow was compacted since the last user message. */
    private volatile boolean overflowRecoveryAttempted;

    Recovery(RunControl control, EventBus bus, Conversation conversation, MessageQueues queues,
            SessionJournal journal, Compactor compactor, RecoveryFacts facts, SessionFallback fallback,
            Consumer<CancellationToken> continueRun, Runnable resumeCancelled) {
        this.resumeCancelled = resumeCancelled;
        this.control = control;
        this.bus = bus;
        this.conversation = conversation;
        this.queues = queues;
        this.journal = journal;
        this.compactor = compactor;
        this.facts = facts;
        this.fallback = fallback.onRunEnd();
        TurnBoundary boundary = fallback.boundary();
        // Every continuation (after a backoff sleep or a compaction) is a turn boundary: revert first.
        this.continueRun = token -> {
            boundary.beforeAttempt();
            continueRun.accept(token);
        };
    }

    /** The classification the last run's end was decided on (NONE before any run ended). */
    Classification lastClassification() {
        return lastClassification;
    }

    boolean compacting() {
        return compacting;
    }

    /** A user message entered the context: overflow recovery is allowed again. */
    void userMessageDelivered() {
        overflowRecoveryAttempted = false;
    }

    /** A reply succeeded: closes a retry chain; unless it overflowed, overflow recovery is allowed again. */
    void replySucceeded(AgentMessage.Assistant reply) {
        // retry_fallback_succeeded precedes auto_retry_end{success:true} (FALLBACK §8)
        control.replySucceeded(() -> fallback.succeeded().ifPresent(bus::publish));
        fallback.replySucceeded(); // any success closes the model's circuit (FALLBACK §6)
        if (!OverflowDetector.isOverflow(reply, facts.contextWindow())) {
            overflowRecoveryAttempted = false;
        }
    }

    /** Decides and carries out what follows {@code outcome}; whatever is thrown meanwhile ends the run. */
    void conclude(RunOutcome outcome, CancellationToken token) {
        ActionExecutor executor = null;
        try {
            RunFacts snapshot = facts.snapshot(outcome.lastAssistant(), control.chainState(),
                    TokenEstimate.contextTokens(conversation.snapshot()), overflowRecoveryAttempted);
            Classification classification = policy.classify(snapshot);
            lastClassification = classification; // before agent_end: its listeners read it
            RecoveryAction action = policy.decide(snapshot, classification);
            executor = new ActionExecutor(snapshot, token, outcome, action.continuesRun());
            action.accept(executor);
        } catch (Throwable e) {
            crashed(token, e, executor != null && executor.finalEndPublished());
        }
    }

    /**
     * Ends {@code token}'s run after an unexpected throwable (a bug, a {@code StackOverflowError},
     * an {@code OutOfMemoryError}): logs it, ends an open chain, emits the final {@code agent_end}
     * unless one was already sent, and returns to idle so later prompts work. Nothing is rethrown:
     * the run thread must survive to serve them.
     */
    void crashed(CancellationToken token, Throwable error, boolean finalEndPublished) {
        LOG.error("run failed unexpectedly", error);
        lastClassification = Classification.of(ErrorClass.NONE); // no decision was made on this end
        String reason = "Internal error: " + error.getClass().getSimpleName();
        control.finishRun(token, () -> {
            RunControl.ChainState chain = control.chainState();
            if (chain.open()) {
                control.giveUp(chain.attempt(), reason);
            }
            if (!finalEndPublished) {
                bus.publish(new AgentEvent.AgentEnd(List.of(), false));
            }
        });
    }

    /**
     * Carries out one decision. Events that precede the action ({@code agent_end}, a chain's failed
     * end) are collected and sent just before it; an action that ends the run sends them under the
     * lock that returns to idle, so a prompt racing them is never refused. Every path sends the
     * run's {@code agent_end} exactly once: a decided switch always happens ({@link FallbackSwitch#claim}).
     */
    private final class ActionExecutor implements RecoveryAction.Handler<Void> {
        private final RunFacts snapshot;
        private final CancellationToken token;
        private final List<Runnable> announcements = new ArrayList<>();
        private final boolean willRetry;
        private final RunOutcome outcome;
        private boolean endPublished;

        ActionExecutor(RunFacts snapshot, CancellationToken token, RunOutcome outcome, boolean willRetry) {
            this.snapshot = snapshot;
            this.token = token;
            this.willRetry = willRetry;
            this.outcome = outcome;
            announcements.add(() -> {
                bus.publish(new AgentEvent.AgentEnd(outcome.newMessages(), willRetry));
                endPublished = true;
            });
        }

        /** True once an {@code agent_end} without {@code willRetry} went out. */
        boolean finalEndPublished() {
            return endPublished && !willRetry;
        }

        private void announce() {
            announcements.forEach(Runnable::run);
            announcements.clear();
        }

        @Override
        public Void finish(RecoveryAction.Finish action) {
            control.finish(this::announce);
            return null;
        }

        @Override
        public Void compactionFailed(RecoveryAction.CompactionFailed action) {
            control.finish(() -> {
                announce();
                // pi reports a second overflow with an end event and no start
                bus.publish(new AgentEvent.CompactionEnd(RecoveryAction.Compact.OVERFLOW, null, false, false,
                        action.errorMessage()));
            });
            return null;
        }

        @Override
        public Void giveUp(RecoveryAction.GiveUp action) {
            announcements.add(() -> control.giveUp(action.attempt(), action.finalError()));
            return action.then().accept(this);
        }

        @Override
        public Void blockCredential(RecoveryAction.BlockCredential action) {
            facts.blockCredentialInUse(action.retryAfterMs());
            return action.then().accept(this);
        }

        @Override
        public Void retry(RecoveryAction.Retry action) {
            announce();
            // The announced delay is exactly the one slept: a server hint, when it set it (SPEC §5.5).
            scheduleRetry(action.attempt(), action.delayMs(), action.errorMessage(), action.rateLimitWait());
            return null;
        }

        @Override
        public Void switchCredential(RecoveryAction.SwitchCredential action) {
            facts.blockCredentialInUse(action.retryAfterMs());
            announce();
            // The next request selects the other, unblocked credential, so there is nothing to wait for.
            scheduleRetry(action.attempt(), 0, action.errorMessage(), RateLimitWait.NONE);
            return null;
        }

        @Override
        public Void switchModel(RecoveryAction.SwitchModel action) {
            announce();
            fallback.apply(action, fallback.claim(action));
            control.nextRung();
            scheduleRetry(action.attempt(), 0, action.errorMessage(), RateLimitWait.NONE, false);
            return null;
        }

        @Override
        public Void fallbackExhausted(RecoveryAction.FallbackExhausted action) {
            fallback.exhausted(action);
            announcements.add(() -> bus.publish(new AgentEvent.RetryFallbackExhausted(action.chainKey(),
                    action.lastError())));
            return action.then().accept(this);
        }

        @Override
        public Void resumeAtReset(RecoveryAction.ResumeAtReset action) {
            announce();
            ResumeEntry resume = new ResumeEntry(facts.selector(), control.wallNowMs() + action.waitMs(),
                    action.waitMs(), action.reason(), action.attempt(), snapshot.config().maxRetries(),
                    action.errorMessage());
            control.scheduleRetry(action.attempt(), snapshot.config().maxRetries(), action.waitMs(),
                    action.errorMessage(), RateLimitWait.NONE, token, () -> {
                        dropFailedReply();
                        // Written before it is announced: a client that saw the event finds it after a restart.
                        resume.appendTo(journal.file());
                        bus.publish(new AgentEvent.RetryResumeScheduled(resume.selector(), resume.resumeAt(),
                                resume.waitMs(), resume.reason()));
                    }, () -> continueRun.accept(token), resumeCancelled);
            return null;
        }

        @Override
        public Void compact(RecoveryAction.Compact action) {
            announce();
            autoCompact(action, snapshot.compaction(), token);
            return null;
        }

        private void scheduleRetry(int attempt, long delayMs, String errorMessage, RateLimitWait wait) {
            scheduleRetry(attempt, delayMs, errorMessage, wait, true);
        }

        private void scheduleRetry(int attempt, long delayMs, String errorMessage, RateLimitWait wait,
                boolean sameModel) {
            control.scheduleRetryKeeping(attempt, snapshot.config().maxRetries(), delayMs, errorMessage, wait, token,
                    () -> dropFailedReply(outcome, sameModel), () -> continueRun.accept(token));
        }
    }

    /**
     * The failed reply leaves the working context (it stays in the session file). With
     * {@code retry.keepPartial}, what its cut stream delivered that {@link PartialReply} keeps takes
     * its place and is journaled: complete tool calls run once, text is continued (SPEC §5.9). A
     * failed continuation of kept text merges into it, so one kept reply stays. Returns what was
     * kept, for {@code auto_retry_start.resumedFrom}; null when nothing was. A switch to another
     * model ({@code sameModel} false), or a model that thinks (Anthropic refuses a prefill then),
     * keeps complete tool calls only: text would not be continued.
     */
    private ResumedFrom dropFailedReply(RunOutcome outcome, boolean sameModel) {
        AgentMessage.Assistant failed = outcome.lastAssistant();
        boolean removed = conversation.removeLastIf(message -> message instanceof AgentMessage.Assistant reply
                && reply.stopReason().failed());
        if (!removed || failed == null || !facts.keepPartial()) {
            return null;
        }
        AgentMessage.Assistant earlier = PartialReply.prefill(conversation.keptAtEnd()).orElse(null);
        AgentMessage.Assistant merged = earlier == null ? failed : PartialReply.merge(earlier, failed);
        boolean continuesText = sameModel && !facts.thinking();
        Optional<PartialReply.Kept> kept = PartialReply.keep(merged, outcome.completedToolCalls(), continuesText);
        if (kept.isEmpty()) {
            if (earlier != null && !continuesText) {
                conversation.removeLastIf(message -> message == earlier); // the next model would not continue it
            }
            return null;
        }
        if (earlier != null) {
            conversation.removeLastIf(message -> message == earlier);
        }
        conversation.appendKept(kept.get().message());
        return kept.get().resumedFrom();
    }

    /** The failed reply leaves the working context before a retry; it stays in the session file. */
    private void dropFailedReply() {
        conversation.removeLastIf(message -> message instanceof AgentMessage.Assistant reply
                && reply.stopReason().failed());
    }

    /**
     * Automatic compaction (SPEC §8.2). After an overflow the failed reply leaves the context and the
     * run continues on the compacted context; after a threshold compaction the prompt is over
     * unless messages are queued. An overflow that finds nothing to summarize says so in the end
     * event: it never ends silently.
     */
    private void autoCompact(RecoveryAction.Compact compact, CompactionConfig config, CancellationToken token) {
        boolean overflow = compact.continuesRun();
        String reason = compact.reason();
        bus.publish(new AgentEvent.CompactionStart(reason));
        if (overflow) {
            overflowRecoveryAttempted = true;
            conversation.removeLastIf(message -> message instanceof AgentMessage.Assistant);
        }
        String prefix = overflow ? "Context overflow recovery failed: " : "Auto-compaction failed: ";
        CompactionResult result;
        compacting = true;
        try {
            result = compactor.compact(journal.file(), config, reason, null, false, token);
        } catch (CompactionException e) {
            boolean aborted = token.isCancelled();
            String error = aborted || (e.nothingToDo() && !overflow) ? null : prefix + e.getMessage();
            control.finish(() -> bus.publish(new AgentEvent.CompactionEnd(reason, null, aborted, false, error)));
            return;
        } catch (RuntimeException | Error e) {
            // A bug or an exhausted JVM: the compaction that was announced still gets its end event.
            LOG.error("auto-compaction failed unexpectedly", e);
            String error = prefix + "internal error (" + e.getClass().getSimpleName() + ")";
            control.finish(() -> bus.publish(new AgentEvent.CompactionEnd(reason, null, false, false, error)));
            return;
        } finally {
            compacting = false;
        }
        conversation.replaceAll(journal.file().buildContext());
        fallback.compactionApplied();
        boolean continues = (overflow || queues.size() > 0) && !token.isCancelled();
        AgentEvent.CompactionEnd end = new AgentEvent.CompactionEnd(reason, result, false, continues, null);
        if (continues) {
            bus.publish(end);
            continueRun.accept(token);
        } else {
            control.finish(() -> bus.publish(end));
        }
    }

    /**
     * {@code compact} on an idle session (SPEC §8.2): {@code compaction_start/_end} with reason
     * {@code manual} around the work; a failure is in the end event and thrown for the response.
     * Run thread only.
     */
    CompactionResult compactManually(CompactionConfig config, String customInstructions) throws CompactionException {
        bus.publish(new AgentEvent.CompactionStart(MANUAL));
        compacting = true;
        try {
            CompactionResult result = compactor.compact(journal.file(), config, MANUAL, customInstructions, true,
                    CancellationToken.none());
            conversation.replaceAll(journal.file().buildContext());
            fallback.compactionApplied(); // a refusal pin holds until a compaction applies
            bus.publish(new AgentEvent.CompactionEnd(MANUAL, result, false, false, null));
            return result;
        } catch (CompactionException | RuntimeException | Error e) {
            String error = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            bus.publish(new AgentEvent.CompactionEnd(MANUAL, null, false, false, "Compaction failed: " + error));
            throw e;
        } finally {
            compacting = false;
        }
    }
}
