package dev.agentd.protocol.response;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import java.util.List;

/** The {@code data} payloads of command responses (pi-compatible field names). */
public final class Results {
    private Results() {}

    /** {@code cycle_model}. */
    public record CycledModel(Model model, ThinkingLevel thinkingLevel, boolean isScoped) {}

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

    public record SlashCommand(String name, String description, String source, String location, String path) {}

    /** {@code get_retry_settings}, {@code set_retry_settings}. */
    public record RetrySettings(boolean enabled, int maxRetries, long baseDelayMs, long maxRetryDelayMs) {}

    /** {@code clear_queue}: the texts removed from each queue. */
    public record ClearedQueues(List<String> steering, List<String> followUp) {}

    /** {@code faux_enqueue}: how many steps wait in the queue the steps went to. */
    public record FauxQueued(int queued) {}

    /** {@code set_event_options}. */
    public record EventOptions(UpdateMode updates) {}
}
