package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.agent.Conversation;
import dev.agentd.server.agent.MessageQueues;
import dev.agentd.server.agent.RunOutcome;
import dev.agentd.server.compaction.CompactionConfig;
import dev.agentd.server.compaction.CompactionException;
import dev.agentd.server.compaction.TokenEstimate;
import dev.agentd.server.recovery.CredentialRotation;
import dev.agentd.server.recovery.OverflowDetector;
import dev.agentd.server.recovery.RecoveryAction;
import dev.agentd.server.recovery.RecoveryPolicy;
import dev.agentd.server.recovery.RetryConfig;
import dev.agentd.server.recovery.RunFacts;
import dev.agentd.server.runtime.CancellationToken;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The end of every run (docs/ARCHITECTURE.md §4.1): gathers the facts, asks
 * {@link RecoveryPolicy} for an action, emits {@code agent_end} with {@code willRetry}, and carries
 * the action out — a retry sleep, a compaction, or the return to idle. Run thread only, except for
 * the chain state kept in {@link RunControl}.
 */
final class Recovery {
    /** What the decision reads from the session. */
    interface Facts {
        RetryConfig retryConfig();

        CompactionConfig compactionConfig();

        long contextWindow();

        CredentialRotation rotation();
    }

    private final RecoveryPolicy policy = new RecoveryPolicy();
    private final RunControl control;
    private final EventBus bus;
    private final Conversation conversation;
    private final MessageQueues queues;
    private final SessionJournal journal;
    private final Compactor compactor;
    private final Facts facts;
    private final Consumer<CancellationToken> continueRun;
    private volatile boolean compacting;
    /** An overflow was compacted since the last user message. */
    private volatile boolean overflowRecoveryAttempted;

    Recovery(RunControl control, EventBus bus, Conversation conversation, MessageQueues queues,
            SessionJournal journal, Compactor compactor, Facts facts, Consumer<CancellationToken> continueRun) {
        this.control = control;
        this.bus = bus;
        this.conversation = conversation;
        this.queues = queues;
        this.journal = journal;
        this.compactor = compactor;
        this.facts = facts;
        this.continueRun = continueRun;
    }

    boolean compacting() {
        return compacting;
    }

    void setCompacting(boolean value) {
        compacting = value;
    }

    /** A user message entered the context: overflow recovery is allowed again. */
    void userMessageDelivered() {
        overflowRecoveryAttempted = false;
    }

    /** A reply succeeded: closes a retry chain; unless it overflowed, overflow recovery is allowed again. */
    void replySucceeded(AgentMessage.Assistant reply) {
        control.replySucceeded();
        if (!OverflowDetector.isOverflow(reply, facts.contextWindow())) {
            overflowRecoveryAttempted = false;
        }
    }

    /** Decides and carries out what follows {@code outcome}. */
    void conclude(RunOutcome outcome, CancellationToken token) {
        RecoveryAction action = policy.decide(new RunFacts(outcome.lastAssistant(), control.retryAttempt(),
                facts.retryConfig(), control.retrySuppressed(), facts.contextWindow(), facts.compactionConfig(),
                TokenEstimate.contextTokens(conversation.snapshot()), overflowRecoveryAttempted), facts.rotation());
        AgentEvent.AgentEnd end = new AgentEvent.AgentEnd(outcome.newMessages(), action.continuesRun());
        if (endsTheRun(action)) {
            control.finish(() -> {
                bus.publish(end);
                announce(action);
            });
            return;
        }
        bus.publish(end);
        carryOut(action, token);
    }

    /** True when carrying out {@code action} is only events and the return to idle. */
    private static boolean endsTheRun(RecoveryAction action) {
        if (action instanceof RecoveryAction.GiveUp giveUp) {
            return endsTheRun(giveUp.then());
        }
        return action instanceof RecoveryAction.Finish || action instanceof RecoveryAction.CompactionFailed;
    }

    /** The events of an action that ends the run. */
    private void announce(RecoveryAction action) {
        if (action instanceof RecoveryAction.GiveUp giveUp) {
            control.giveUp(giveUp.attempt(), giveUp.finalError());
            announce(giveUp.then());
        } else if (action instanceof RecoveryAction.CompactionFailed failed) {
            // pi reports a second overflow with an end event and no start
            bus.publish(new AgentEvent.AutoCompactionEnd(null, false, false, failed.errorMessage()));
        }
    }

    private void carryOut(RecoveryAction action, CancellationToken token) {
        if (action instanceof RecoveryAction.GiveUp giveUp) {
            control.giveUp(giveUp.attempt(), giveUp.finalError());
            carryOut(giveUp.then(), token);
        } else if (action instanceof RecoveryAction.Retry retry) {
            control.scheduleRetry(retry.attempt(), facts.retryConfig().maxRetries(), retry.delayMs(),
                    retry.errorMessage(), token,
                    // The failed reply leaves the working context; it stays in the session file.
                    () -> conversation.removeLastIf(message -> message instanceof AgentMessage.Assistant reply
                            && reply.stopReason().failed()),
                    () -> continueRun.accept(token));
        } else if (action instanceof RecoveryAction.Compact compact) {
            autoCompact(compact, token);
        } else {
            control.finish();
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
            result = compactor.compact(journal.file(), facts.compactionConfig(), null, token);
        } catch (CompactionException e) {
            boolean aborted = token.isCancelled();
            String prefix = overflow ? "Context overflow recovery failed: " : "Auto-compaction failed: ";
            String error = e.nothingToDo() || aborted ? null : prefix + e.getMessage();
            control.finish(() -> bus.publish(new AgentEvent.AutoCompactionEnd(null, aborted, false, error)));
            return;
        } finally {
            compacting = false;
        }
        conversation.replaceAll(journal.file().buildContext());
        AgentEvent.AutoCompactionEnd end = new AgentEvent.AutoCompactionEnd(result, false, overflow, null);
        if ((overflow || queues.size() > 0) && !token.isCancelled()) {
            bus.publish(end);
            continueRun.accept(token);
        } else {
            control.finish(() -> bus.publish(end));
        }
    }
}
