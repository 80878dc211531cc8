package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.WireTrees;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The one place where session events become ACP {@code session/update} payloads (issue 16 §2, §3).
 * Pure: the event and a {@link View} of the session in, the updates out, in the order they are to
 * be sent. Only kinds of the stable v1 schema are produced: a client rejects unknown ones, so an
 * event without a counterpart maps to nothing — but only one listed in {@link #NO_COUNTERPART}: any
 * other unmapped event fails loudly, so a new event type is never dropped unnoticed.
 */
public final class UpdateMapper {
    private static final int MAX_NOTICE_DETAIL_CHARS = 200;

    /** The session events that have no ACP counterpart: deliberately not sent. */
    static final Set<Class<? extends AgentEvent>> NO_COUNTERPART = Set.of(AgentEvent.Ready.class,
            AgentEvent.BashExecutionUpdate.class, // RPC only: ACP has no bash command (pi 1.x)
            AgentEvent.AgentStart.class, AgentEvent.AgentEnd.class, AgentEvent.TurnStart.class,
            AgentEvent.TurnEnd.class, AgentEvent.MessageStart.class,
            AgentEvent.SummarizationRetryScheduled.class, AgentEvent.SummarizationRetryAttemptStart.class,
            AgentEvent.SummarizationRetryFinished.class, // inside a compaction, whose update says how it ended
            AgentEvent.QueueUpdate.class, AgentEvent.RetryFallbackSucceeded.class,
            AgentEvent.RetryFallbackReverted.class, AgentEvent.RetryFallbackExhausted.class,
            AgentEvent.RetryProbeScheduled.class, AgentEvent.RetryProbeResult.class,
            AgentEvent.FallbackCircuitOpened.class, AgentEvent.FallbackCircuitClosed.class, AgentEvent.Unknown.class,
            AgentEvent.ModelRerouted.class, // the reply itself says who answered (_meta-free v1)
            AgentEvent.AgentSettled.class, // the prompt's answer (its stopReason) says the turn is over
            AgentEvent.RateLimitUpdate.class); // the figures ride on usage_update's _meta instead

    /** Tool output blocks a tool-call update cannot show (tools produce text and images). */
    static final Set<Class<? extends ContentBlock>> NOT_TOOL_OUTPUT = Set.of(ContentBlock.Thinking.class,
            ContentBlock.ToolCall.class, ContentBlock.Unknown.class);

    /**
     * What the mapping needs besides the event.
     *
     * @param notices the client advertised {@code session.notices}
     * @param nowMs the wall clock, for {@code nextRetryAt}
     * @param errorClass the class of the failure that caused a retry (lower case), or null
     * @param toolArgs the arguments of a tool call by id (its end event carries none)
     * @param configOptions the session's config options as they are now
     * @param compaction the client advertised {@code session.compaction}
     * @param compactionId the id of the compaction a compaction event belongs to (else unused)
     * @param contextTokens the estimated tokens in context now, for a reply that has no usage of its own
     * @param errorKind the {@code errorKind} of the failure that caused a retry, or null
     * @param retryCard the retry chain's tool-call card (clients without notices), or null when none is open
     * @param messageId the {@code messageId} of the reply being streamed, or null: a retried reply is
     *     a new message, so text streamed before a failure stays apart from the answer (A3/Z2)
     * @param askedFirst the tools whose calls ask for permission first: their {@code in_progress}
     *     follows the user's answer (sent by {@code EditorTools}), not the start of the call (A11)
     * @param rateLimits a selector's latest rate-limit figures, or null: {@code usage_update}'s
     *     {@code _meta["agentd/rateLimits"]} (ACP 2.4.0's UsageUpdate has no field for them)
     */
    public record View(boolean notices, long nowMs, Path cwd, long contextWindow, String errorClass,
            Function<String, JsonNode> toolArgs, Supplier<ArrayNode> configOptions, boolean compaction,
            String compactionId, LongSupplier contextTokens, String errorKind, RetryCard retryCard,
            String messageId, Predicate<String> askedFirst, Function<String, RateLimits> rateLimits) {

        public View(boolean notices, long nowMs, Path cwd, long contextWindow, String errorClass,
                Function<String, JsonNode> toolArgs, Supplier<ArrayNode> configOptions, boolean compaction,
                String compactionId, LongSupplier contextTokens, String errorKind, RetryCard retryCard,
                String messageId, Predicate<String> askedFirst) {
            this(notices, nowMs, cwd, contextWindow, errorClass, toolArgs, configOptions, compaction, compactionId,
                    contextTokens, errorKind, retryCard, messageId, askedFirst, selector -> null);
        }

        public View(boolean notices, long nowMs, Path cwd, long contextWindow, String errorClass,
                Function<String, JsonNode> toolArgs, Supplier<ArrayNode> configOptions, boolean compaction,
                String compactionId, LongSupplier contextTokens, String errorKind, RetryCard retryCard) {
            this(notices, nowMs, cwd, contextWindow, errorClass, toolArgs, configOptions, compaction, compactionId,
                    contextTokens, errorKind, retryCard, null, tool -> false);
        }
    }

    /**
     * The card that shows a retry chain to a client without {@code session.notices} (A2/Z1): one
     * tool call of kind {@code other}, announced by the chain's first backoff ({@code fresh}),
     * retitled by each later one and completed or failed when the chain ends.
     */
    public record RetryCard(String id, boolean fresh) {}

    private UpdateMapper() {}

    public static List<ObjectNode> map(AgentEvent event, View view) {
        return map(event, view, NO_COUNTERPART);
    }

    /** As above, with {@code ignored} the events that map to nothing (a test passes fewer). */
    static List<ObjectNode> map(AgentEvent event, View view, Set<Class<? extends AgentEvent>> ignored) {
        if (ignored.contains(event.getClass())) {
            return List.of();
        }
        if (event instanceof AgentEvent.MessageUpdate update) {
            return streamed(update.assistantMessageEvent(), view);
        }
        if (event instanceof AgentEvent.MessageEnd end) { // a user's or a tool result's end has no counterpart
            return end.message() instanceof AgentMessage.Assistant reply ? List.of(usage(reply, view)) : List.of();
        }
        if (event instanceof AgentEvent.CompactionStart start) {
            return view.compaction() ? List.of(compaction(view, "in_progress", start.reason())) : List.of();
        }
        if (event instanceof AgentEvent.CompactionEnd end) {
            return view.compaction() ? List.of(compactionEnd(end, view)) : List.of();
        }
        if (event instanceof AgentEvent.ToolExecutionStart start) {
            return view.askedFirst().test(start.toolName()) ? List.of() : List.of(running(start.toolCallId()));
        }
        if (event instanceof AgentEvent.ToolExecutionUpdate running) {
            return running.partialResult() == null ? List.of() : List.of(AcpJson.update("tool_call_update")
                    .put("toolCallId", running.toolCallId()).set("content", outputContent(running.partialResult())));
        }
        if (event instanceof AgentEvent.ToolExecutionEnd end) {
            ObjectNode plan = end.isError() ? null : TodoPlan.update(end.toolName(), view.toolArgs().apply(end.toolCallId()));
            return plan == null ? List.of(toolEnd(end, view)) : List.of(toolEnd(end, view), plan);
        }
        if (event instanceof AgentEvent.AutoRetryStart retry) {
            return List.of(view.notices() || view.retryCard() == null ? retry(retry, view) : retryCard(retry, view));
        }
        if (event instanceof AgentEvent.AutoRetryEnd end) {
            return view.notices() || view.retryCard() == null ? List.of() : List.of(retryCardEnd(end, view));
        }
        if (event instanceof AgentEvent.RetryResumeScheduled resume) {
            return List.of(resume(resume, view));
        }
        if (event instanceof AgentEvent.RetryFallbackApplied applied) {
            return List.of(fallback(applied, view));
        }
        if (event instanceof AgentEvent.ModelChanged || event instanceof AgentEvent.ThinkingLevelChanged) {
            return List.of(configOptions(view.configOptions().get()));
        }
        if (event instanceof AgentEvent.SessionInfoChanged info) {
            ObjectNode update = AcpJson.update("session_info_update");
            if (info.name() == null) {
                update.putNull("title");
            } else {
                update.put("title", info.name());
            }
            return List.of(update);
        }
        throw new IllegalStateException("unhandled session event: " + event.getClass().getSimpleName());
    }

    /** {@code config_option_update}: the full option state (ACP sends all options, not a diff). */
    public static ObjectNode configOptions(ArrayNode options) {
        ObjectNode update = AcpJson.update("config_option_update");
        update.set("configOptions", options);
        return update;
    }

    private static List<ObjectNode> streamed(AssistantMessageEvent event, View view) {
        if (event == null || event.type() == null) {
            return List.of();
        }
        return switch (event.type()) {
            case "text_delta" -> chunk("agent_message_chunk", event.delta(), view.messageId());
            case "thinking_delta" -> chunk("agent_thought_chunk", event.delta(), view.messageId());
            case "toolcall_end" -> event.toolCall() == null ? List.of() : List.of(toolCall(event.toolCall(), view));
            default -> List.of();
        };
    }

    private static List<ObjectNode> chunk(String kind, String delta, String messageId) {
        if (delta == null || delta.isEmpty()) {
            return List.of();
        }
        ObjectNode update = AcpJson.update(kind);
        update.set("content", AcpJson.text(delta));
        if (messageId != null) {
            update.put("messageId", messageId);
        }
        return List.of(update);
    }

    /** A call's {@code in_progress}: when it starts, or for a call that asked first, once allowed. */
    static ObjectNode running(String toolCallId) {
        return AcpJson.update("tool_call_update").put("toolCallId", toolCallId).put("status", "in_progress");
    }

    /** The model asked for a tool: announced as pending before it runs (or waits for permission). */
    private static ObjectNode toolCall(ContentBlock.ToolCall call, View view) {
        ObjectNode update = AcpJson.update("tool_call").put("toolCallId", call.id())
                .put("title", ToolCalls.title(call.name(), call.arguments(), view.cwd()))
                .put("kind", ToolCalls.kind(call.name())).put("status", "pending");
        update.set("locations", ToolCalls.locations(call.arguments(), view.cwd()));
        if (call.arguments() != null) {
            update.set("rawInput", call.arguments());
        }
        return update;
    }

    private static ObjectNode toolEnd(AgentEvent.ToolExecutionEnd end, View view) {
        ObjectNode update = AcpJson.update("tool_call_update").put("toolCallId", end.toolCallId())
                .put("status", end.isError() ? "failed" : "completed");
        ArrayNode content = end.result() == null ? AcpJson.array() : outputContent(end.result());
        JsonNode terminal = end.result() == null || end.result().details() == null ? null
                : end.result().details().get(EditorTerminal.TERMINAL_ID);
        if (terminal != null && terminal.isTextual()) { // the card keeps the terminal it showed live (A6)
            content.insert(0, EditorTerminal.terminal(terminal.textValue()));
        }
        if (!end.isError()) {
            ObjectNode diff = ToolCalls.diff(end.toolName(), view.toolArgs().apply(end.toolCallId()), view.cwd());
            if (diff != null) {
                content.insert(0, diff);
            }
        }
        update.set("content", content);
        return update;
    }

    /** Tool output as ACP tool-call content: each text block as a {@code content} item. */
    private static ArrayNode outputContent(ToolOutput output) {
        ArrayNode content = AcpJson.array();
        for (ContentBlock block : output.content()) {
            if (block instanceof ContentBlock.Text text) {
                content.add(AcpJson.object().put("type", "content").set("content", AcpJson.text(text.text())));
            } else if (block instanceof ContentBlock.Image image) {
                content.add(AcpJson.object().put("type", "content").set("content", AcpJson.object()
                        .put("type", "image").put("data", image.data()).put("mimeType", image.mimeType())));
            } else if (!NOT_TOOL_OUTPUT.contains(block.getClass())) {
                throw new IllegalStateException("unhandled tool output block: " + block.getClass().getSimpleName());
            }
        }
        return content;
    }

    /**
     * The context meter after a reply. A failed or aborted reply carries no usage (zeros): the
     * context did not shrink, so {@code used} is the session's estimate instead (A10).
     */
    private static ObjectNode usage(AgentMessage.Assistant reply, View view) {
        Usage usage = reply.usage();
        long counted = usage.input() + usage.output() + usage.cacheRead() + usage.cacheWrite();
        boolean failed = reply.stopReason() == StopReason.ERROR || reply.stopReason() == StopReason.ABORTED;
        long used = failed && counted == 0 ? Math.max(view.contextTokens().getAsLong(), 0) : counted;
        ObjectNode update = AcpJson.update("usage_update").put("used", used)
                .put("size", Math.max(view.contextWindow(), 0));
        if (usage.cost().total() > 0) {
            update.set("cost", AcpJson.object().put("amount", usage.cost().total()).put("currency", "USD"));
        }
        RateLimits limits = view.rateLimits().apply(reply.provider() + "/" + reply.model());
        if (limits != null) {
            update.putObject("_meta").set("agentd/rateLimits", WireTrees.rateLimits(limits));
        }
        return update;
    }

    /** A compaction's entry in the client's timeline (A9), patched in place by its end under the same id. */
    private static ObjectNode compaction(View view, String status, String reason) {
        ObjectNode update = AcpJson.update("compaction_update").put("compactionId", view.compactionId())
                .put("status", status);
        update.putObject("_meta").put("agentd/reason", reason);
        return update;
    }

    private static ObjectNode compactionEnd(AgentEvent.CompactionEnd end, View view) {
        String status = end.aborted() ? "cancelled" : end.errorMessage() != null ? "failed" : "completed";
        ObjectNode update = compaction(view, status, end.reason());
        if (end.result() != null && end.result().summary() != null) {
            update.putArray("summary").add(AcpJson.text(end.result().summary()));
            ((ObjectNode) update.get("_meta")).put("agentd/tokensBefore", end.result().tokensBefore());
        }
        if (end.errorMessage() != null) {
            update.put("error", line(end.errorMessage())); // one bounded line, never a whole body
        }
        return update;
    }

    /** A backoff (issue 16 §3): a warning notice, or a message chunk for clients without notices. */
    private static ObjectNode retry(AgentEvent.AutoRetryStart retry, View view) {
        long seconds = (retry.delayMs() + 999) / 1000;
        String title = "Retrying in " + seconds + " s (attempt " + retry.attempt() + "/" + retry.maxAttempts() + ")"
                + detail(retry.errorMessage());
        return notice("warning", title, retryMeta(retry, view), view);
    }

    private static ObjectNode retryMeta(AgentEvent.AutoRetryStart retry, View view) {
        ObjectNode meta = AcpJson.object();
        meta.set("agentd/retry", AcpJson.object().put("attempt", retry.attempt())
                .put("maxAttempts", retry.maxAttempts()).put("delayMs", retry.delayMs())
                .put("nextRetryAt", Instant.ofEpochMilli(view.nowMs() + retry.delayMs()).toString())
                .put("errorClass", view.errorClass()));
        return meta;
    }

    /**
     * A backoff on the retry card: "Retrying in 2 s (1/3): overloaded" — the failure's kind, never
     * the provider's text, which may be a raw body.
     */
    private static ObjectNode retryCard(AgentEvent.AutoRetryStart retry, View view) {
        long seconds = (retry.delayMs() + 999) / 1000;
        String title = "Retrying in " + seconds + " s (" + retry.attempt() + "/" + retry.maxAttempts() + ")"
                + (view.errorKind() == null ? "" : ": " + view.errorKind().replace('_', ' '));
        ObjectNode update = AcpJson.update(view.retryCard().fresh() ? "tool_call" : "tool_call_update")
                .put("toolCallId", view.retryCard().id()).put("title", title);
        if (view.retryCard().fresh()) {
            update.put("kind", "other");
        }
        update.put("status", "in_progress");
        update.set("_meta", retryMeta(retry, view));
        return update;
    }

    /** The chain's end on its card: completed when a retry succeeded, else failed with why. */
    private static ObjectNode retryCardEnd(AgentEvent.AutoRetryEnd end, View view) {
        String title = end.success() ? "Retried: attempt " + end.attempt() + " succeeded"
                : "Retry stopped after attempt " + end.attempt()
                        + (view.errorKind() == null ? "" : ": " + view.errorKind().replace('_', ' '));
        if (!end.success() && "Retry cancelled".equals(end.finalError())) {
            title = "Retry cancelled";
        }
        return AcpJson.update("tool_call_update").put("toolCallId", view.retryCard().id()).put("title", title)
                .put("status", end.success() ? "completed" : "failed");
    }

    /** A wait for a limit's reset (FALLBACK §11): the time it continues, in the title and the meta. */
    private static ObjectNode resume(AgentEvent.RetryResumeScheduled resume, View view) {
        String at = Instant.ofEpochMilli(resume.resumeAt()).toString();
        String title = "Limit reached (" + resume.reason().replace('_', ' ') + "): resuming " + resume.selector()
                + " at " + at;
        ObjectNode meta = AcpJson.object();
        meta.set("agentd/resume", AcpJson.object().put("selector", resume.selector()).put("resumeAt", at)
                .put("waitMs", resume.waitMs()).put("reason", resume.reason()));
        return notice("warning", title, meta, view);
    }

    /** A model fallback: the option update follows from the model change event. */
    private static ObjectNode fallback(AgentEvent.RetryFallbackApplied applied, View view) {
        String title = "Switched from " + applied.from() + " to " + applied.to()
                + (applied.reason() == null ? "" : " (" + applied.reason() + ")");
        ObjectNode meta = AcpJson.object();
        meta.set("agentd/fallback", AcpJson.object().put("from", applied.from()).put("to", applied.to())
                .put("chainKey", applied.chainKey()).put("reason", applied.reason()));
        return notice("info", title, meta, view);
    }

    private static ObjectNode notice(String severity, String title, ObjectNode meta, View view) {
        return notice(severity, title, meta, view.notices());
    }

    /** A notice ({@code notices}: the client advertised them), else a transcript line with the same title. */
    static ObjectNode notice(String severity, String title, ObjectNode meta, boolean notices) {
        ObjectNode update;
        if (notices) {
            update = AcpJson.update("notice").put("severity", severity).put("title", title);
        } else {
            // Clients without notices get a line of the transcript carrying the same facts.
            update = AcpJson.update("agent_message_chunk");
            update.set("content", AcpJson.text("\n[agentd] " + title + "\n"));
        }
        update.set("_meta", meta);
        return update;
    }

    private static String detail(String message) {
        return message == null || message.isBlank() ? "" : ": " + line(message);
    }

    /** A message as one line of at most {@link #MAX_NOTICE_DETAIL_CHARS}: never a whole provider body. */
    static String line(String message) {
        String line = message.strip().replace('\n', ' ').replace('\r', ' ');
        return line.length() <= MAX_NOTICE_DETAIL_CHARS ? line : line.substring(0, MAX_NOTICE_DETAIL_CHARS - 1) + "…";
    }
}
