package dev.agentd.client;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import java.util.List;
import java.util.Optional;

/**
 * What one prompt came to, as {@link RpcClient#promptAndWait} saw it: every event of its logical
 * run, and the answers a caller acts on — the final reply, whether it succeeded, and why not.
 *
 * <p>A retried attempt that failed and was then retried does not count: the result describes the
 * last reply and the retry chain's ending. {@link #succeeded()} is false when the last reply
 * failed or was aborted, or when a retry chain ended in failure (retries ran out, or
 * {@code abort_retry} cancelled them).
 *
 * @param events every event from just before the prompt was sent until its run was over
 * @param disposition what the daemon did with the prompt (pi 1.x's {@code data.disposition}):
 *     {@code started}, {@code queued} (sent with a streamingBehavior while a run was going: the
 *     events are that run's) or {@code handled}; null from daemons that do not say
 */
public record PromptResult(List<AgentEvent> events, String disposition) {

    public PromptResult {
        events = List.copyOf(events);
    }

    public PromptResult(List<AgentEvent> events) {
        this(events, null);
    }

    /** True when the daemon ended the run with {@code agent_settled} and said an abort ended it. */
    public boolean aborted() {
        return events.stream().anyMatch(event -> event instanceof AgentEvent.AgentSettled settled && settled.aborted());
    }

    /** The last assistant reply of the run (a failed one included), if any reply was produced. */
    public Optional<AgentMessage.Assistant> finalMessage() {
        AgentMessage.Assistant last = null;
        for (AgentEvent event : events) {
            if (event instanceof AgentEvent.MessageEnd end && end.message() instanceof AgentMessage.Assistant reply) {
                last = reply;
            }
        }
        return Optional.ofNullable(last);
    }

    /** The text of the final reply ("" when it has no text), if there is one. */
    public Optional<String> text() {
        return finalMessage().map(AgentMessage.Assistant::text);
    }

    /** Why the final reply ended, if there is one. */
    public Optional<StopReason> stopReason() {
        return finalMessage().map(AgentMessage.Assistant::stopReason);
    }

    /** The retry chain's failed ending ({@code auto_retry_end{success:false}}), if the run had one. */
    public Optional<AgentEvent.AutoRetryEnd> failedRetryChain() {
        AgentEvent.AutoRetryEnd last = null;
        for (AgentEvent event : events) {
            if (event instanceof AgentEvent.AutoRetryEnd end) {
                last = end;
            }
        }
        return last != null && !last.success() ? Optional.of(last) : Optional.empty();
    }

    /**
     * The model switches of the run, in order ({@code retry_fallback_applied}, FALLBACK.md §8):
     * empty when the primary answered or no chain was configured.
     */
    public List<AgentEvent.RetryFallbackApplied> fallbackSwitches() {
        return events.stream().filter(AgentEvent.RetryFallbackApplied.class::isInstance)
                .map(AgentEvent.RetryFallbackApplied.class::cast).toList();
    }

    /** The replies another model answered ({@code model_rerouted}), in order. */
    public List<AgentEvent.ModelRerouted> reroutes() {
        return events.stream().filter(AgentEvent.ModelRerouted.class::isInstance)
                .map(AgentEvent.ModelRerouted.class::cast).toList();
    }

    /** The waits for a limit's reset ({@code retry_resume_scheduled}) the run went through, in order. */
    public List<AgentEvent.RetryResumeScheduled> resumes() {
        return events.stream().filter(AgentEvent.RetryResumeScheduled.class::isInstance)
                .map(AgentEvent.RetryResumeScheduled.class::cast).toList();
    }

    /** The chain that ran out of candidates ({@code retry_fallback_exhausted}), if the run walked one to its end. */
    public Optional<AgentEvent.RetryFallbackExhausted> fallbackExhausted() {
        return events.stream().filter(AgentEvent.RetryFallbackExhausted.class::isInstance)
                .map(AgentEvent.RetryFallbackExhausted.class::cast).reduce((first, second) -> second);
    }

    /** True when the final reply completed and no retry chain ended in failure. */
    public boolean succeeded() {
        return failedRetryChain().isEmpty() && stopReason().map(reason -> !reason.failed()).orElse(false);
    }

    /**
     * Why the prompt did not succeed: the failed chain's final error, else the final reply's
     * error message ({@code "aborted"} for an aborted reply without one); empty on success.
     */
    public Optional<String> error() {
        if (succeeded()) {
            return Optional.empty();
        }
        Optional<String> chain = failedRetryChain().map(AgentEvent.AutoRetryEnd::finalError);
        if (chain.isPresent()) {
            return chain;
        }
        return finalMessage()
                .map(reply -> reply.errorMessage() != null && !reply.errorMessage().isBlank() ? reply.errorMessage()
                        : reply.stopReason().wire())
                .or(() -> Optional.of("no reply"));
    }
}
