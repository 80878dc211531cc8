package dev.agentd.protocol.command;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.agentd.protocol.json.WireType;
import dev.agentd.protocol.json.WireTypes;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import java.util.List;

/**
 * Every command a client may send (SPEC §3.2), without its envelope: the {@code id} travels beside
 * the command (see {@link CommandEnvelope}). Fields marked {@link Required} must be present and
 * non-null; unknown fields are ignored.
 */
@JsonPropertyOrder({"type"})
public sealed interface Command {

    @JsonProperty("type")
    default String type() {
        return WireTypes.nameOf(getClass());
    }

    // --- pi-compatible commands -------------------------------------------------------------

    @WireType("prompt")
    record Prompt(@Required String message, List<ContentBlock.Image> images, StreamingBehavior streamingBehavior)
            implements Command {
        public Prompt(String message) {
            this(message, null, null);
        }
    }

    @WireType("steer")
    record Steer(@Required String message, List<ContentBlock.Image> images) implements Command {}

    @WireType("follow_up")
    record FollowUp(@Required String message, List<ContentBlock.Image> images) implements Command {}

    @WireType("abort")
    record Abort() implements Command {}

    @WireType("new_session")
    record NewSession(String parentSession) implements Command {}

    @WireType("get_state")
    record GetState() implements Command {}

    @WireType("get_messages")
    record GetMessages() implements Command {}

    @WireType("set_model")
    record SetModel(@Required String provider, @Required String modelId) implements Command {}

    @WireType("cycle_model")
    record CycleModel() implements Command {}

    @WireType("get_available_models")
    record GetAvailableModels() implements Command {}

    @WireType("set_thinking_level")
    record SetThinkingLevel(@Required ThinkingLevel level) implements Command {}

    @WireType("cycle_thinking_level")
    record CycleThinkingLevel() implements Command {}

    @WireType("set_steering_mode")
    record SetSteeringMode(@Required QueueMode mode) implements Command {}

    @WireType("set_follow_up_mode")
    record SetFollowUpMode(@Required QueueMode mode) implements Command {}

    @WireType("compact")
    record Compact(String customInstructions) implements Command {}

    @WireType("set_auto_compaction")
    record SetAutoCompaction(@Required Boolean enabled) implements Command {}

    /**
     * {@code persist}: absent or true writes the change to the global settings file (pi's
     * behaviour: every later daemon inherits it); false keeps it for this process only.
     */
    @WireType("set_auto_retry")
    record SetAutoRetry(@Required Boolean enabled, Boolean persist) implements Command {
        public SetAutoRetry(Boolean enabled) {
            this(enabled, null);
        }
    }

    @WireType("abort_retry")
    record AbortRetry() implements Command {}

    @WireType("bash")
    record Bash(@Required String command) implements Command {}

    @WireType("abort_bash")
    record AbortBash() implements Command {}

    @WireType("get_session_stats")
    record GetSessionStats() implements Command {}

    @WireType("switch_session")
    record SwitchSession(@Required String sessionPath) implements Command {}

    @WireType("fork")
    record Fork(@Required String entryId) implements Command {}

    @WireType("get_fork_messages")
    record GetForkMessages() implements Command {}

    @WireType("get_last_assistant_text")
    record GetLastAssistantText() implements Command {}

    @WireType("set_session_name")
    record SetSessionName(@Required String name) implements Command {}

    @WireType("get_commands")
    record GetCommands() implements Command {}

    @WireType("export_html")
    record ExportHtml(String outputPath) implements Command {}

    @WireType("clone")
    record Clone() implements Command {}

    /** pi 1.6: the thinking levels the current model accepts. */
    @WireType("get_available_thinking_levels")
    record GetAvailableThinkingLevels() implements Command {}

    /** pi 1.6: the session's entries in append order; {@code since} an entry id: only those after it. */
    @WireType("get_entries")
    record GetEntries(String since) implements Command {
        public GetEntries() {
            this(null);
        }
    }

    /** pi 1.6: the session's entries as a tree. */
    @WireType("get_tree")
    record GetTree() implements Command {}

    /** An extension dialog's answer; agentd runs no extensions, so it is accepted and not answered. */
    @WireType("extension_ui_response")
    record ExtensionUiResponse() implements Command {}

    // --- agentd additions ------------------------------------------------------------------

    @WireType("get_retry_settings")
    record GetRetrySettings() implements Command {}

    /** {@code persist} as for {@link SetAutoRetry}. */
    @WireType("set_retry_settings")
    record SetRetrySettings(Integer maxRetries, Long baseDelayMs, Long maxRetryDelayMs, Boolean persist)
            implements Command {
        public SetRetrySettings(Integer maxRetries, Long baseDelayMs, Long maxRetryDelayMs) {
            this(maxRetries, baseDelayMs, maxRetryDelayMs, null);
        }
    }

    @WireType("clear_queue")
    record ClearQueue() implements Command {}

    /**
     * Re-runs the last turn when it ended in an error (its retries and fallback spent), on the
     * current model, without a new prompt; answered like a prompt (SPEC §5.7).
     */
    @WireType("retry")
    record Retry() implements Command {}

    @WireType("faux_enqueue")
    record FauxEnqueue(String model, @Required List<FauxStep> steps) implements Command {}

    @WireType("set_event_options")
    record SetEventOptions(@Required UpdateMode updates) implements Command {}

    // --- model fallback (FALLBACK.md §9) -----------------------------------------------------

    @WireType("get_fallback_state")
    record GetFallbackState() implements Command {}

    @WireType("set_fallback_chain")
    record SetFallbackChain(@Required String key, @Required List<String> entries) implements Command {}

    @WireType("remove_fallback_chain")
    record RemoveFallbackChain(@Required String key) implements Command {}

    @WireType("set_model_fallback")
    record SetModelFallback(@Required Boolean enabled) implements Command {}

    @WireType("set_fallback_revert_policy")
    record SetFallbackRevertPolicy(@Required String policy) implements Command {}
}
