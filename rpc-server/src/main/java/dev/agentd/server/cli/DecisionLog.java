package dev.agentd.server.cli;

import dev.agentd.protocol.event.AgentEvent;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --verbose}: one stderr line per retry, compaction or fallback decision, with why, read
 * from the session's own events (which are already redacted: they go to stdout as well). Kept
 * outside the session so the decisions stay in one place and this is only a reader of them.
 */
final class DecisionLog {
    private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);
    /** The events that carry no decision; a new event type goes here or gets a line in {@link #describe}. */
    private static final Set<Class<?>> NO_DECISION = Set.of(AgentEvent.Ready.class, AgentEvent.AgentStart.class,
            AgentEvent.BashExecutionUpdate.class,
            AgentEvent.AgentEnd.class, AgentEvent.TurnStart.class, AgentEvent.TurnEnd.class,
            AgentEvent.MessageStart.class, AgentEvent.MessageUpdate.class, AgentEvent.MessageEnd.class,
            AgentEvent.ToolExecutionStart.class, AgentEvent.ToolExecutionUpdate.class,
            AgentEvent.ToolExecutionEnd.class, AgentEvent.QueueUpdate.class, AgentEvent.ThinkingLevelChanged.class,
            AgentEvent.SessionInfoChanged.class, AgentEvent.ModelChanged.class,
            AgentEvent.RetryFallbackSucceeded.class, AgentEvent.RetryProbeScheduled.class,
            AgentEvent.RetryProbeResult.class, AgentEvent.FallbackCircuitClosed.class, AgentEvent.Unknown.class,
            AgentEvent.AgentSettled.class, AgentEvent.RateLimitUpdate.class,
            // a summary's retries stay inside the compaction, whose start and end are logged
            AgentEvent.SummarizationRetryScheduled.class, AgentEvent.SummarizationRetryAttemptStart.class,
            AgentEvent.SummarizationRetryFinished.class);

    private DecisionLog() {}

    static void onEvent(AgentEvent event) {
        if (!LOG.isDebugEnabled()) {
            return;
        }
        String line = describe(event);
        if (line != null) {
            LOG.debug("{}", line);
        }
    }

    static String describe(AgentEvent event) {
        if (event instanceof AgentEvent.AutoRetryStart e) {
            return "retry " + e.attempt() + "/" + e.maxAttempts() + " in " + e.delayMs() + " ms because: "
                    + e.errorMessage();
        }
        if (event instanceof AgentEvent.AutoRetryEnd e) {
            return e.success() ? "retry succeeded on attempt " + e.attempt()
                    : "retries ended after attempt " + e.attempt() + ": " + e.finalError();
        }
        if (event instanceof AgentEvent.CompactionStart e) {
            return "compacting the context because: " + e.reason();
        }
        if (event instanceof AgentEvent.CompactionEnd e) {
            return e.aborted() ? "compaction aborted" : e.errorMessage() != null
                    ? "compaction failed: " + e.errorMessage() : "compaction done" + (e.willRetry() ? "; retrying" : "");
        }
        if (event instanceof AgentEvent.RetryFallbackApplied e) {
            return "falling back from " + e.from() + " to " + e.to() + " because: " + e.reason()
                    + (e.limit() == null ? "" : " (" + e.limit() + ")");
        }
        if (event instanceof AgentEvent.RetryFallbackReverted e) {
            return "reverting from " + e.from() + " to " + e.to() + " because: " + e.cause();
        }
        if (event instanceof AgentEvent.RetryFallbackExhausted e) {
            return "fallback chain " + e.chainKey() + " exhausted: " + e.lastError();
        }
        if (event instanceof AgentEvent.RetryResumeScheduled e) {
            return "resuming " + e.selector() + " at the reset in " + e.waitMs() + " ms because: " + e.reason();
        }
        if (event instanceof AgentEvent.ModelRerouted e) {
            return "the provider answered " + e.requested() + " with " + e.responded()
                    + (e.reason() == null ? "" : " because: " + e.reason());
        }
        if (event instanceof AgentEvent.FallbackCircuitOpened e) {
            return "circuit opened for " + e.selector() + " for " + e.durationMs() + " ms";
        }
        if (event != null && NO_DECISION.contains(event.getClass())) {
            return null;
        }
        throw new IllegalStateException("unhandled event: " + event);
    }
}
