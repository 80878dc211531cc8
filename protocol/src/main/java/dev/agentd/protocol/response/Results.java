package dev.agentd.protocol.response;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import java.util.List;
import java.util.Map;

/** The {@code data} payloads of command responses (pi-compatible field names). */
public final class Results {
    private Results() {}

    /** {@code cycle_model}. */
    public record CycledModel(Model model, ThinkingLevel thinkingLevel, boolean isScoped) {}

    /**
     * {@code prompt}, {@code steer}, {@code follow_up} (pi 1.x): what became of the message —
     * {@link #STARTED} a run, or {@link #QUEUED} into the running one. pi's third value,
     * {@code handled} (an input handler consumed it), never occurs: agentd has no input handlers.
     */
    public record Disposition(String disposition) {
        public static final String STARTED = "started";
        public static final String QUEUED = "queued";
        public static final String HANDLED = "handled";
    }

    /** {@code cycle_thinking_level}. */
    public record Level(ThinkingLevel level) {}

    /** {@code get_available_models}. */
    public record Models(List<Model> models) {}

    /** {@code get_messages}. */
    public record Messages(List<AgentMessage> messages) {}

    /** {@code bash}; {@code exitCode} is absent when the process was killed. */
    public record Bash(String output, Integer exitCode, boolean cancelled, boolean truncated, String fullOutputPath) {}

    /** {@code new_session}, {@code switch_session}. */
    public record Cancelled(boolean cancelled) {}

    /** {@code fork}: the text of the user message forked from. */
    public record Fork(String text, boolean cancelled) {}

    /** {@code get_fork_messages}. */
    public record ForkMessages(List<ForkMessage> messages) {}

    public record ForkMessage(String entryId, String text) {}

    /** {@code get_last_assistant_text}; {@code text} is absent when there is none (pi writes {@code {}}). */
    public record LastAssistantText(String text) {}

    /** {@code get_commands}. */
    public record Commands(List<SlashCommand> commands) {}

    /**
     * A prompt template or skill (pi 0.73): {@code source} is {@code prompt} or {@code skill};
     * {@code sourceInfo} says where it was found.
     */
    public record SlashCommand(String name, String description, String source, SourceInfo sourceInfo) {}

    /** {@code scope} is {@code user} (agent directory) or {@code project}; {@code baseDir} the directory scanned. */
    public record SourceInfo(String path, String source, String scope, String origin, String baseDir) {}

    /** {@code export_html}: the file written. */
    public record ExportHtml(String path) {}

    /** {@code get_retry_settings}, {@code set_retry_settings}. */
    /** {@code maxAgentDelayMs} (pi 1.x): the cap on a backoff, read from settings.json. */
    public record RetrySettings(boolean enabled, int maxRetries, long baseDelayMs, long maxRetryDelayMs,
            long maxAgentDelayMs) {}

    /** {@code clear_queue}: the texts removed from each queue. */
    public record ClearedQueues(List<String> steering, List<String> followUp) {}

    /** {@code get_available_thinking_levels} (pi 1.6): lowest first; {@code [off]} for a model without reasoning. */
    public record ThinkingLevels(List<ThinkingLevel> levels) {}

    /**
     * {@code get_entries} (pi 1.6): session entries (header excluded) as written to the file, in
     * append order, abandoned branches included; {@code leafId} the current leaf, null when the
     * session is empty (the daemon writes that null, as pi does).
     */
    public record Entries(List<JsonNode> entries, String leafId) {}

    /**
     * {@code get_tree} (pi 1.6): the roots (orphaned entries included), each node
     * {@code {entry, children, label?, labelTimestamp?}} with children oldest first; {@code leafId}
     * as in {@link Entries}. Nodes stay JSON: a long session is a deep tree.
     */
    public record Tree(List<JsonNode> tree, String leafId) {}

    /** {@code faux_enqueue}: how many steps wait in the queue the steps went to. */
    public record FauxQueued(int queued) {}

    /** {@code set_event_options}. */
    public record EventOptions(UpdateMode updates) {}

    /**
     * {@code get_fallback_state} (FALLBACK §9): whether switching is on, the revert policy, the
     * canonical chains (key → entries, as {@code provider/id[:thinking]}), the episode in progress
     * if any, this session's cooldowns, the circuits known to the agent directory (with the time
     * left), and the validation warnings of the configured chains.
     */
    public record FallbackState(boolean enabled, String revertPolicy, Map<String, List<String>> chains,
            FallbackEpisode active, List<FallbackCooldown> cooldowns, List<FallbackCircuit> circuits,
            List<String> warnings, FallbackStore store) {
        public FallbackState {
            chains = chains == null ? Map.of() : Map.copyOf(chains);
            cooldowns = cooldowns == null ? List.of() : List.copyOf(cooldowns);
            circuits = circuits == null ? List.of() : List.copyOf(circuits);
            warnings = warnings == null ? List.of() : List.copyOf(warnings);
        }
    }

    /**
     * Where circuits and credential blocks live: {@code kind} {@code file}, {@code memory} or
     * {@code redis}; {@code shared} false while a shared store is unreachable (then {@code warning}
     * says why, without credentials).
     */
    public record FallbackStore(String kind, boolean shared, String warning) {}

    /** The fallback episode in progress: the chain walked, the model it started from, a pin. */
    public record FallbackEpisode(String chainKey, String originalSelector, boolean pinned, String pinReason) {}

    /** A model this session will not fall back to (or revert to) for {@code remainingMs} more. */
    public record FallbackCooldown(String selector, long remainingMs) {}

    /** A circuit breaker's state ({@code open}, {@code half-open}, {@code closed}) and time left open. */
    public record FallbackCircuit(String selector, String state, long remainingMs) {}
}
