package dev.agentd.examples.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import java.util.Optional;

/** The one-line wording of the events the chat reports as notices (pure functions). */
final class EventText {
    static final String RETRY_CANCELLED = "Retry cancelled";
    private static final int MAX_ARGS = 80;

    private EventText() {}

    /** The line for a retry chain that ended without success (SPEC §9 wording). */
    static String retryFailed(int attempts, String finalError) {
        if (RETRY_CANCELLED.equals(finalError)) {
            return RETRY_CANCELLED;
        }
        return "Retry failed after " + attempts + " attempts: " + finalError;
    }

    /** {@code [tool] read {"path":"README.md"}}, the arguments cut to one short line. */
    static String toolCall(String name, JsonNode args) {
        String shown = args == null || args.isNull() ? "" : " " + args;
        if (shown.length() > MAX_ARGS) {
            shown = shown.substring(0, MAX_ARGS - 1) + "…";
        }
        return "[tool] " + name + shown;
    }

    static String toolFailed(String name) {
        return "[tool] " + name + " failed";
    }

    /** The notice for a model-fallback, circuit or model event (FALLBACK.md §8); empty for other events. */
    static Optional<String> notice(AgentEvent event) {
        if (event instanceof AgentEvent.RetryFallbackApplied applied) {
            String why = applied.limit() == null ? applied.reason() : applied.reason() + ", " + applied.limit() + " limit";
            return Optional.of("Switched from " + applied.from() + " to " + applied.to() + " (" + why + ")");
        }
        if (event instanceof AgentEvent.RetryFallbackSucceeded succeeded) {
            return Optional.of("Fallback model " + succeeded.model() + " answered");
        }
        if (event instanceof AgentEvent.RetryFallbackReverted reverted) {
            return Optional.of("Back on " + reverted.to() + (reverted.cause() == null ? "" : " (" + reverted.cause() + ")"));
        }
        if (event instanceof AgentEvent.RetryFallbackExhausted exhausted) {
            return Optional.of("Fallback chain exhausted: " + exhausted.lastError());
        }
        if (event instanceof AgentEvent.RetryProbeScheduled probe) {
            return Optional.of("Will probe " + probe.selector() + " (probe " + probe.probeIndex() + ")");
        }
        if (event instanceof AgentEvent.RetryProbeResult result) {
            return Optional.of("Probe of " + result.selector() + (result.ok() ? " succeeded"
                    : " failed" + (result.errorMessage() == null ? "" : ": " + result.errorMessage())));
        }
        if (event instanceof AgentEvent.FallbackCircuitOpened opened) {
            return Optional.of("Circuit opened for " + opened.selector() + " (" + seconds(opened.durationMs()) + ")");
        }
        if (event instanceof AgentEvent.FallbackCircuitClosed closed) {
            return Optional.of("Circuit closed for " + closed.selector());
        }
        if (event instanceof AgentEvent.RateLimitUpdate update) {
            return Optional.of(update.selector() + " has used " + Math.round(update.utilization() * 100)
                    + " % of its rate limit");
        }
        if (event instanceof AgentEvent.ModelChanged changed && isUserVisibleChange(changed.source())) {
            String thinking = changed.thinkingLevel() == null ? "" : ", thinking " + changed.thinkingLevel().wire();
            return Optional.of("Model: " + changed.model().selector() + thinking);
        }
        return Optional.empty();
    }

    /** Fallback switches are already told by their own events; saying it twice is noise. */
    private static boolean isUserVisibleChange(String source) {
        return source == null || !source.startsWith("fallback");
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + "s" : String.format(java.util.Locale.ROOT, "%.1fs", millis / 1000.0);
    }
}
