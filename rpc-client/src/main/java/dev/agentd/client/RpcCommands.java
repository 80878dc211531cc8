package dev.agentd.client;

import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import dev.agentd.protocol.response.Results;
import dev.agentd.protocol.response.SessionState;
import dev.agentd.protocol.response.SessionStats;
import java.util.List;
import java.util.Optional;

/**
 * One blocking, typed method per command (SPEC §3.2, FALLBACK.md §9). Each waits up to the
 * client's request timeout, returns the response's {@code data} decoded, and throws
 * {@link RpcException} on {@code success:false} (unlike pi's client, also for commands without
 * data). Use {@link #request(Command, Class)} or {@code RpcClient.requestAsync} for anything else.
 */
public interface RpcCommands {

    /** Sends {@code command}, waits for its response and decodes its data as {@code dataType}. */
    <T> T request(Command command, Class<T> dataType);

    // --- prompting ---------------------------------------------------------------------------

    /**
     * Starts a run; returns once the daemon accepted it (the run continues in the background) with
     * its disposition ({@code started}, {@code queued}, {@code handled}; null from daemons before pi 1.x's wire).
     */
    default String prompt(String message) {
        return disposition(request(new Command.Prompt(message), Results.Disposition.class));
    }

    /** {@code behavior} says how to queue the message while the agent is busy (null: refuse then). */
    default String prompt(String message, List<ContentBlock.Image> images, StreamingBehavior behavior) {
        return disposition(request(new Command.Prompt(message, images, behavior), Results.Disposition.class));
    }

    /**
     * Re-runs the last turn that ended in an error (its retries and fallback spent) on the current
     * model, without a new prompt; returns once the run started ({@code started}). The run is
     * followed as a prompt's is (or use {@code RpcClient.retryAndWait}). Throws when refused: a run
     * is in progress, or the last turn did not end with an error.
     */
    default String retry() {
        return disposition(request(new Command.Retry(), Results.Disposition.class));
    }

    /** Delivered after the current tool calls, before the next model call. */
    default String steer(String message) {
        return steer(message, null);
    }

    /** Returns the disposition, {@code queued} (or {@code handled} by a pi input handler); null from older daemons. */
    default String steer(String message, List<ContentBlock.Image> images) {
        return disposition(request(new Command.Steer(message, images), Results.Disposition.class));
    }

    /** Delivered when the agent would otherwise stop. */
    default String followUp(String message) {
        return followUp(message, null);
    }

    /** Returns the disposition as {@link #steer(String, List)} does. */
    default String followUp(String message, List<ContentBlock.Image> images) {
        return disposition(request(new Command.FollowUp(message, images), Results.Disposition.class));
    }

    private static String disposition(Results.Disposition data) {
        return data == null ? null : data.disposition();
    }

    /** Cancels a pending retry, the stream and tools; answered once the agent is idle. */
    default void abort() {
        request(new Command.Abort(), Void.class);
    }

    // --- session -----------------------------------------------------------------------------

    default Results.Cancelled newSession() {
        return newSession(null);
    }

    /** {@code parentSession}: the session file recorded as this one's parent (may be null). */
    default Results.Cancelled newSession(String parentSession) {
        return request(new Command.NewSession(parentSession), Results.Cancelled.class);
    }

    default SessionState getState() {
        return request(new Command.GetState(), SessionState.class);
    }

    default List<AgentMessage> getMessages() {
        return listOf(request(new Command.GetMessages(), Results.Messages.class), Results.Messages::messages);
    }

    default SessionStats getSessionStats() {
        return request(new Command.GetSessionStats(), SessionStats.class);
    }

    default Results.Cancelled switchSession(String sessionPath) {
        return request(new Command.SwitchSession(sessionPath), Results.Cancelled.class);
    }

    default Results.Fork fork(String entryId) {
        return request(new Command.Fork(entryId), Results.Fork.class);
    }

    default List<Results.ForkMessage> getForkMessages() {
        return listOf(request(new Command.GetForkMessages(), Results.ForkMessages.class),
                Results.ForkMessages::messages);
    }

    /** Empty when there is no assistant text yet (the daemon answers {@code {}}). */
    default Optional<String> getLastAssistantText() {
        Results.LastAssistantText data = request(new Command.GetLastAssistantText(), Results.LastAssistantText.class);
        return Optional.ofNullable(data).map(Results.LastAssistantText::text);
    }

    default void setSessionName(String name) {
        request(new Command.SetSessionName(name), Void.class);
    }

    default List<Results.SlashCommand> getCommands() {
        return listOf(request(new Command.GetCommands(), Results.Commands.class), Results.Commands::commands);
    }

    // --- model and thinking ------------------------------------------------------------------

    default Model setModel(String provider, String modelId) {
        return request(new Command.SetModel(provider, modelId), Model.class);
    }

    /** Empty when there is nothing to cycle (the daemon answers {@code "data":null}). */
    default Optional<Results.CycledModel> cycleModel() {
        return Optional.ofNullable(request(new Command.CycleModel(), Results.CycledModel.class));
    }

    default List<Model> getAvailableModels() {
        return listOf(request(new Command.GetAvailableModels(), Results.Models.class), Results.Models::models);
    }

    default void setThinkingLevel(ThinkingLevel level) {
        request(new Command.SetThinkingLevel(level), Void.class);
    }

    /** Empty when the model has no thinking levels to cycle. */
    default Optional<ThinkingLevel> cycleThinkingLevel() {
        return Optional.ofNullable(request(new Command.CycleThinkingLevel(), Results.Level.class))
                .map(Results.Level::level);
    }

    /** The current model's thinking levels, lowest first; {@code [off]} for a model without reasoning (pi 1.6). */
    default List<ThinkingLevel> getAvailableThinkingLevels() {
        return listOf(request(new Command.GetAvailableThinkingLevels(), Results.ThinkingLevels.class),
                Results.ThinkingLevels::levels);
    }

    // --- session entries (pi 1.6) -----------------------------------------------------------

    /** Every session entry as written to the file (header excluded), with the current leaf. */
    default Results.Entries getEntries() {
        return getEntries(null);
    }

    /**
     * The entries appended after the entry with id {@code since} (all when null): a cursor that
     * survives restarts. An unknown id fails with {@code Entry not found: <id>}.
     */
    default Results.Entries getEntries(String since) {
        return request(new Command.GetEntries(since), Results.Entries.class);
    }

    /** The session's entries as a tree of {@code {entry, children, label?, labelTimestamp?}} nodes. */
    default Results.Tree getTree() {
        return request(new Command.GetTree(), Results.Tree.class);
    }

    // --- queues ------------------------------------------------------------------------------

    default void setSteeringMode(QueueMode mode) {
        request(new Command.SetSteeringMode(mode), Void.class);
    }

    default void setFollowUpMode(QueueMode mode) {
        request(new Command.SetFollowUpMode(mode), Void.class);
    }

    default Results.ClearedQueues clearQueue() {
        return request(new Command.ClearQueue(), Results.ClearedQueues.class);
    }

    // --- compaction and retry ----------------------------------------------------------------

    /** Summarizes older context now; may take as long as a model call (see the request timeout). */
    default CompactionResult compact(String customInstructions) {
        return request(new Command.Compact(customInstructions), CompactionResult.class);
    }

    /**
     * Turns auto-compaction on or off. <b>Persisted</b>: written to the global settings file
     * ({@code $AGENTD_DIR/settings.json}), as pi does, so every later daemon on the machine inherits it.
     */
    default void setAutoCompaction(boolean enabled) {
        request(new Command.SetAutoCompaction(enabled), Void.class);
    }

    /**
     * Turns automatic retry on or off. <b>Persisted</b>: written to the global settings file
     * ({@code $AGENTD_DIR/settings.json}), as pi does, so every later daemon on the machine (every
     * editor, every client) starts with it. For a change that lasts only for this daemon use
     * {@link #setAutoRetry(boolean, boolean) setAutoRetry(enabled, false)}.
     */
    default void setAutoRetry(boolean enabled) {
        request(new Command.SetAutoRetry(enabled), Void.class);
    }

    /**
     * As {@link #setAutoRetry(boolean)}; {@code persist} false sends {@code persist:false}: the
     * change applies to this daemon process only and no settings file is written.
     */
    default void setAutoRetry(boolean enabled, boolean persist) {
        request(new Command.SetAutoRetry(enabled, persist ? null : Boolean.FALSE), Void.class);
    }

    /** Cancels the backoff sleep of a running retry chain (which then ends with success:false). */
    default void abortRetry() {
        request(new Command.AbortRetry(), Void.class);
    }

    default Results.RetrySettings getRetrySettings() {
        return request(new Command.GetRetrySettings(), Results.RetrySettings.class);
    }

    /**
     * Null arguments leave that setting unchanged. <b>Persisted</b>: the given values are written
     * to the global settings file, as pi does, so every later daemon inherits them; see
     * {@link #setRetrySettings(Integer, Long, Long, boolean)} for this process only.
     */
    default Results.RetrySettings setRetrySettings(Integer maxRetries, Long baseDelayMs, Long maxRetryDelayMs) {
        return request(new Command.SetRetrySettings(maxRetries, baseDelayMs, maxRetryDelayMs),
                Results.RetrySettings.class);
    }

    /**
     * As {@link #setRetrySettings(Integer, Long, Long)}; {@code persist} false sends
     * {@code persist:false}: for this daemon process only, no settings file is written.
     */
    default Results.RetrySettings setRetrySettings(Integer maxRetries, Long baseDelayMs, Long maxRetryDelayMs,
            boolean persist) {
        return request(new Command.SetRetrySettings(maxRetries, baseDelayMs, maxRetryDelayMs,
                persist ? null : Boolean.FALSE), Results.RetrySettings.class);
    }

    // --- bash --------------------------------------------------------------------------------

    default Results.Bash bash(String command) {
        return request(new Command.Bash(command), Results.Bash.class);
    }

    default void abortBash() {
        request(new Command.AbortBash(), Void.class);
    }

    // --- agentd additions --------------------------------------------------------------------

    /** Queues scripted replies for the faux provider ({@code model} null: the current faux model). */
    default Results.FauxQueued fauxEnqueue(String model, List<FauxStep> steps) {
        return request(new Command.FauxEnqueue(model, steps), Results.FauxQueued.class);
    }

    /**
     * The form of the {@code message_update}s that follow: {@link UpdateMode#DELTA} (the daemon's
     * default, pi 1.x's: the change and the cumulative {@code usage}) or
     * {@link UpdateMode#FULL} (pi 0.73's: the partial message as well).
     */
    default Results.EventOptions setEventOptions(UpdateMode updates) {
        return request(new Command.SetEventOptions(updates), Results.EventOptions.class);
    }

    // --- model fallback (FALLBACK.md §9) -----------------------------------------------------

    /** Model fallback now: enabled, revert policy, chains, the episode, cooldowns, circuits, warnings. */
    default Results.FallbackState getFallbackState() {
        return request(new Command.GetFallbackState(), Results.FallbackState.class);
    }

    /**
     * Validates and saves a chain in the global settings ({@code entries} empty: a tombstone that
     * disables the chain); refused with every validation warning. Answers the state after saving.
     */
    default Results.FallbackState setFallbackChain(String key, List<String> entries) {
        return request(new Command.SetFallbackChain(key, entries), Results.FallbackState.class);
    }

    /** Removes a chain from the global settings; answers the state after removing. */
    default Results.FallbackState removeFallbackChain(String key) {
        return request(new Command.RemoveFallbackChain(key), Results.FallbackState.class);
    }

    default void setModelFallback(boolean enabled) {
        request(new Command.SetModelFallback(enabled), Void.class);
    }

    default void setFallbackRevertPolicy(String policy) {
        request(new Command.SetFallbackRevertPolicy(policy), Void.class);
    }

    private static <W, E> List<E> listOf(W wrapper, java.util.function.Function<W, List<E>> items) {
        List<E> list = wrapper == null ? null : items.apply(wrapper);
        return list == null ? List.of() : list;
    }
}
