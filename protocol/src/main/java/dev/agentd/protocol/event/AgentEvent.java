package dev.agentd.protocol.event;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.WireType;
import dev.agentd.protocol.json.WireTypes;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.RateLimits;
import java.util.List;

/**
 * Every record the daemon streams without an {@code id} (SPEC §3.4, FALLBACK.md §8). Unknown types
 * decode to {@link Unknown}, which keeps the JSON.
 */
@JsonPropertyOrder({"type"})
public sealed interface AgentEvent {

    @JsonProperty("type")
    default String type() {
        return WireTypes.nameOf(getClass());
    }

    /**
     * First record after startup. {@code warnings} (agentd addition, absent when there are none):
     * configuration problems found at startup, e.g. a malformed models.json that left only the
     * faux model, for an editor to show.
     */
    @WireType("ready")
    record Ready(String version, String mode, Model model, List<String> warnings) implements AgentEvent {
        public Ready {
            warnings = warnings == null || warnings.isEmpty() ? null : List.copyOf(warnings);
        }

        public Ready(String version, String mode, Model model) {
            this(version, mode, model, null);
        }
    }

    @WireType("agent_start")
    record AgentStart() implements AgentEvent {}

    /** {@code willRetry}: a retry or a compaction-continue follows this run. */
    @WireType("agent_end")
    record AgentEnd(List<AgentMessage> messages, Boolean willRetry) implements AgentEvent {}

    /**
     * pi 1.x: the prompt's logical run is over and nothing follows on its own (no retry, compaction
     * continuation or queued message). Sent once, after the last {@code agent_end}; {@code aborted}
     * when an {@code abort} ended it.
     */
    @WireType("agent_settled")
    record AgentSettled(boolean aborted) implements AgentEvent {}

    @WireType("turn_start")
    record TurnStart() implements AgentEvent {}

    @WireType("turn_end")
    record TurnEnd(AgentMessage message, List<AgentMessage.ToolResult> toolResults) implements AgentEvent {}

    @WireType("message_start")
    record MessageStart(AgentMessage message) implements AgentEvent {}

    /**
     * One content change of a streaming reply. {@code message} is the partial message, present only
     * in {@code full} update mode (pi 0.73's form), where the serializer writes it once and copies it
     * into both places; without it the update is pi 1.x's delta form, which carries the reply's
     * cumulative {@code usage} so far at top level instead.
     */
    @WireType("message_update")
    @JsonSerialize(using = MessageUpdateSerializer.class)
    record MessageUpdate(AgentMessage message, AssistantMessageEvent assistantMessageEvent, Usage usage)
            implements AgentEvent {

        /** An update without a usage of its own (the full form, or a test's delta). */
        public MessageUpdate(AgentMessage message, AssistantMessageEvent assistantMessageEvent) {
            this(message, assistantMessageEvent, null);
        }
    }

    @WireType("message_end")
    record MessageEnd(AgentMessage message) implements AgentEvent {}

    @WireType("tool_execution_start")
    record ToolExecutionStart(String toolCallId, String toolName, JsonNode args) implements AgentEvent {}

    @WireType("tool_execution_update")
    record ToolExecutionUpdate(String toolCallId, String toolName, JsonNode args, ToolOutput partialResult)
            implements AgentEvent {}

    /**
     * {@code durationMs} (pi 1.x): how long the tool's execution took on the monotonic clock; absent
     * when the tool did not run (unknown tool, no thread to run it on).
     */
    @WireType("tool_execution_end")
    record ToolExecutionEnd(String toolCallId, String toolName, ToolOutput result, boolean isError, Long durationMs)
            implements AgentEvent {
        public ToolExecutionEnd(String toolCallId, String toolName, ToolOutput result, boolean isError) {
            this(toolCallId, toolName, result, isError, null);
        }
    }

    /**
     * RPC only (pi 1.x): output of the RPC {@code bash} command while it runs, in order; {@code id}
     * repeats the command's id (absent when it had none). The stream is bounded (SPEC: the first
     * {@code tools.Truncation.MAX_BYTES} of output); the command's response holds the final result.
     */
    @WireType("bash_execution_update")
    record BashExecutionUpdate(String id, String delta) implements AgentEvent {}

    /**
     * A retry is scheduled: {@code attempt} is 1-based, {@code maxAttempts} is retry.maxRetries;
     * {@code resumedFrom} (additive, absent when null) says what of a cut reply the retry keeps.
     */
    @WireType("auto_retry_start")
    record AutoRetryStart(int attempt, int maxAttempts, long delayMs, String errorMessage, ResumedFrom resumedFrom)
            implements AgentEvent {
        /** The pi shape: nothing of the failed reply was kept. */
        public AutoRetryStart(int attempt, int maxAttempts, long delayMs, String errorMessage) {
            this(attempt, maxAttempts, delayMs, errorMessage, null);
        }
    }

    @WireType("auto_retry_end")
    record AutoRetryEnd(boolean success, int attempt, String finalError) implements AgentEvent {}

    /** pi 0.73's name; {@code reason} is manual, threshold or overflow (SPEC §8.2). */
    @WireType("compaction_start")
    record CompactionStart(String reason) implements AgentEvent {}

    /**
     * Ends every compaction that started (and a second overflow, which has no start): {@code result}
     * when something was summarized, {@code errorMessage} when it failed, {@code willRetry} when the
     * run continues on the compacted context.
     */
    @WireType("compaction_end")
    record CompactionEnd(String reason, CompactionResult result, boolean aborted, boolean willRetry,
            String errorMessage) implements AgentEvent {}

    /**
     * pi 1.6: a summary request (compaction's; a branch summary's in pi) failed transiently and is
     * sent again after {@code delayMs}; {@code attempt} is 1-based, {@code maxAttempts} retry.maxRetries.
     */
    @WireType("summarization_retry_scheduled")
    record SummarizationRetryScheduled(int attempt, int maxAttempts, long delayMs, String errorMessage)
            implements AgentEvent {}

    /** pi 1.6: the retried summary request starts; {@code source} "compaction" with its {@code reason}. */
    @WireType("summarization_retry_attempt_start")
    record SummarizationRetryAttemptStart(String source, String reason) implements AgentEvent {}

    /** pi 1.6: the summary's retries are over (it succeeded, failed for good, or was aborted). */
    @WireType("summarization_retry_finished")
    record SummarizationRetryFinished() implements AgentEvent {}

    /** The texts now pending in each queue; sent whenever either changes (queued, delivered, cleared). */
    @WireType("queue_update")
    record QueueUpdate(List<String> steering, List<String> followUp) implements AgentEvent {}

    /** The effective thinking level changed (set, cycle, or a model change that clamps it). */
    @WireType("thinking_level_changed")
    record ThinkingLevelChanged(ThinkingLevel level) implements AgentEvent {}

    /** The session's name changed ({@code set_session_name}). */
    @WireType("session_info_changed")
    record SessionInfoChanged(String name) implements AgentEvent {}

    /** {@code source}: set, cycle, restore, fallback or fallback-revert. */
    @WireType("model_changed")
    record ModelChanged(Model model, ThinkingLevel thinkingLevel, String source) implements AgentEvent {}

    // --- model fallback and circuits (FALLBACK.md §8) ---------------------------------------

    @WireType("retry_fallback_applied")
    record RetryFallbackApplied(String from, String to, String chainKey, String reason, String limit)
            implements AgentEvent {}

    @WireType("retry_fallback_succeeded")
    record RetryFallbackSucceeded(String model, String chainKey) implements AgentEvent {}

    @WireType("retry_fallback_reverted")
    record RetryFallbackReverted(String from, String to, String cause) implements AgentEvent {}

    @WireType("retry_fallback_exhausted")
    record RetryFallbackExhausted(String chainKey, String lastError) implements AgentEvent {}

    /**
     * A usage, quota or long rate limit with a known reset left nothing to serve the turn: agentd
     * waits for the reset and continues the same turn (FALLBACK §11). Precedes the
     * {@code auto_retry_start} whose {@code delayMs} is {@code waitMs}; an abort ends the wait with
     * {@code auto_retry_end{success:false, finalError:"Retry cancelled"}}.
     *
     * @param selector the model waited for, {@code provider/id}
     * @param resumeAt when the turn continues, epoch milliseconds
     * @param reason {@code usage_limit}, {@code quota} or {@code rate_limited}
     */
    @WireType("retry_resume_scheduled")
    record RetryResumeScheduled(String selector, long resumeAt, long waitMs, String reason) implements AgentEvent {}

    /**
     * A reply came from another model than the one requested (a provider's server-side fallback,
     * a gateway's reroute; FALLBACK §10): once per reply, just before its {@code message_end}.
     * {@code reason} is null unless the provider named one.
     */
    @WireType("model_rerouted")
    record ModelRerouted(String requested, String responded, String reason) implements AgentEvent {}

    @WireType("retry_probe_scheduled")
    record RetryProbeScheduled(String selector, long atMs, int probeIndex) implements AgentEvent {}

    @WireType("retry_probe_result")
    record RetryProbeResult(String selector, boolean ok, String errorMessage) implements AgentEvent {}

    @WireType("fallback_circuit_opened")
    record FallbackCircuitOpened(String selector, long durationMs, Long retryAfterMs) implements AgentEvent {}

    @WireType("fallback_circuit_closed")
    record FallbackCircuitClosed(String selector) implements AgentEvent {}

    // --- quota before the wall (SPEC §5, FALLBACK.md §8) --------------------------------------

    /**
     * A selector's rate-limit utilization crossed {@code threshold} (0.5, 0.8 or 0.95) upward; once
     * per crossing, re-armed when it falls back below (a window reset). {@code limits} are the
     * figures that crossed it, as {@code get_state.data.rateLimits} shows them.
     */
    @WireType("rate_limit_update")
    record RateLimitUpdate(String selector, double threshold, double utilization, RateLimits limits)
            implements AgentEvent {}

    /** An event type this version does not know; its JSON is kept and written back unchanged. */
    record Unknown(@JsonValue ObjectNode json) implements AgentEvent {
        @Override
        public String type() {
            JsonNode type = json.get("type");
            return type == null ? null : type.asText();
        }
    }
}
