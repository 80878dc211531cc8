package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.compaction.Summarizer;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
import dev.agentd.server.recovery.RetryConfig;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.Scheduler;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A compaction's summary request, retried as pi 1.6 retries it: a transient failure (as
 * {@link ErrorClassifier} classifies a reply: transient or rate-limited) is sent again after the
 * retry settings' backoff, up to {@code retry.maxRetries} times ({@code retry.enabled} off: never),
 * announced by {@code summarization_retry_scheduled}, {@code _attempt_start} and, once any retry was
 * scheduled, one {@code _finished}. The wait is on the session's scheduler and ends on the token's
 * cancellation ({@code abort}); {@code abort_retry} does not touch it, as in pi, which keeps
 * summary retries apart from the run's retry chain.
 */
final class SummaryRetries {
    private final Summarizer.Completion completion;
    private final Supplier<RetryConfig> config;
    private final LongSupplier contextWindow;
    private final Scheduler scheduler;
    private final Consumer<AgentEvent> publish;

    SummaryRetries(Summarizer.Completion completion, Supplier<RetryConfig> config, LongSupplier contextWindow,
            Scheduler scheduler, Consumer<AgentEvent> publish) {
        this.completion = completion;
        this.config = config;
        this.contextWindow = contextWindow;
        this.scheduler = scheduler;
        this.publish = publish;
    }

    /** The session's: its provider calls, retry settings, current model's window, scheduler and bus. */
    SummaryRetries(ProviderCalls calls, SettingsControl settings, ModelControl models, Scheduler scheduler,
            Consumer<AgentEvent> publish) {
        this(calls::complete, settings::retry, () -> models.current().contextWindow(), scheduler, publish);
    }

    /** The completion for a compaction with {@code reason} (manual, threshold or overflow). */
    Summarizer.Completion forCompaction(String reason) {
        return (systemPrompt, messages, cancel) -> complete(reason, systemPrompt, messages, cancel);
    }

    private AgentMessage.Assistant complete(String reason, String systemPrompt, List<AgentMessage> messages,
            CancellationToken cancel) {
        RetryConfig retry = config.get();
        int maxAttempts = retry.enabled() ? retry.maxRetries() : 0;
        int attempt = 0;
        while (true) {
            AgentMessage.Assistant reply = completion.complete(systemPrompt, messages, cancel);
            if (reply.stopReason() != StopReason.ERROR || attempt >= maxAttempts || !retried(reply)
                    || cancel.isCancelled()) {
                finished(attempt);
                return reply;
            }
            attempt++;
            long delayMs = retry.backoffMs(attempt);
            String error = reply.errorMessage() == null ? "Unknown error" : reply.errorMessage();
            publish.accept(new AgentEvent.SummarizationRetryScheduled(attempt, maxAttempts, delayMs, error));
            if (!cancel.sleep(scheduler, delayMs)) {
                finished(attempt);
                return reply; // the summarizer sees the cancelled token: "Compaction cancelled"
            }
            publish.accept(new AgentEvent.SummarizationRetryAttemptStart("compaction", reason));
        }
    }

    private boolean retried(AgentMessage.Assistant reply) {
        ErrorClass errorClass = ErrorClassifier.classify(reply, contextWindow.getAsLong()).errorClass();
        return errorClass == ErrorClass.TRANSIENT || errorClass == ErrorClass.RATE_LIMITED;
    }

    private void finished(int attempts) {
        if (attempts > 0) {
            publish.accept(new AgentEvent.SummarizationRetryFinished());
        }
    }
}
