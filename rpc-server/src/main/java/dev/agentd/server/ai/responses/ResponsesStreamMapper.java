package dev.agentd.server.ai.responses;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.AssistantMessageBuilder;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.TextBounds;
import dev.agentd.server.ai.catalog.Pricing;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.Redactor;
import dev.agentd.server.ai.http.StreamMapper;
import dev.agentd.server.ai.sse.SseEvent;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maps Responses stream events onto the builder, one slot per {@code output_index}: a
 * {@code reasoning} item → thinking (its summary or reasoning text deltas), a {@code message} →
 * text ({@code output_text} deltas; a {@code refusal} fails the reply as
 * {@link ErrorTypes#REFUSAL}), a {@code function_call} → a tool call with id
 * {@code call_id|item_id} (pi's form) and argument deltas. The reply is built from the deltas
 * alone: {@code content_part.*}, {@code *.done} texts, a missing {@code call_id} or a
 * {@code response.completed} without {@code output} (MockServer sends none of these) change
 * nothing; a done event only supplies arguments that were never streamed. Unknown events are
 * ignored. {@code response.completed}/{@code incomplete} end the reply with usage and stop reason,
 * {@code response.failed} and {@code error} with the provider's error; a body ending before one of
 * them is {@link ErrorTypes#STREAM_TRUNCATED}.
 */
final class ResponsesStreamMapper implements StreamMapper {
    /** Reasoning items awaiting their encrypted_content from response.completed, at most this much JSON. */
    private static final int MAX_PENDING_CHARS = 1 << 20;

    private enum Kind { THINKING, TEXT, TOOL }

    private static final class Slot {
        final Kind kind;
        final int index;
        boolean streamed;
        int summaryParts;

        Slot(Kind kind, int index) {
            this.kind = kind;
            this.index = index;
        }
    }

    private final AssistantMessageBuilder reply;
    private final Model model;
    private final Redactor redactor;
    private final String api;
    private final Map<Integer, Slot> slots = new HashMap<>();
    /** Reasoning item id → (block index, item) until response.completed backfills encrypted_content. */
    private final Map<String, Map.Entry<Integer, ObjectNode>> pending = new LinkedHashMap<>();
    private int pendingChars;
    private int generatedIds;
    private boolean calledTools;
    private StringBuilder refusal;
    private String status;
    private String incompleteReason;
    private ProviderError failure;

    ResponsesStreamMapper(AssistantMessageBuilder reply, Model model, Redactor redactor, String api) {
        this.reply = reply;
        this.model = model;
        this.redactor = redactor;
        this.api = api;
    }

    @Override
    public boolean onEvent(SseEvent event) {
        String data = event.data().trim();
        if (data.isEmpty() || data.equals("[DONE]")) {
            return true;
        }
        JsonNode root;
        try {
            root = Json.mapper().readTree(data);
        } catch (JsonProcessingException e) {
            failure = malformed(data);
            return false;
        }
        if (root == null || !root.isObject()) {
            failure = malformed(data);
            return false;
        }
        String type = root.path("type").asText(event.event());
        int output = root.path("output_index").asInt(-1);
        switch (type) {
            case "response.created", "response.in_progress" -> reported(root.path("response"));
            case "response.output_item.added" -> slot(output, root.path("item"));
            case "response.reasoning_summary_part.added" -> summaryPart(output);
            case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" ->
                    delta(output, Kind.THINKING, root.path("delta"));
            case "response.output_text.delta" -> delta(output, Kind.TEXT, root.path("delta"));
            case "response.refusal.delta" -> refusal(root.path("delta").asText(""));
            case "response.function_call_arguments.delta" -> delta(output, Kind.TOOL, root.path("delta"));
            case "response.function_call_arguments.done" -> unstreamed(output, root.path("arguments"));
            case "response.output_item.done" -> itemDone(output, root.path("item"));
            case "response.completed", "response.incomplete" -> {
                finish(root.path("response"));
                return false;
            }
            case "response.failed" -> {
                failed(root.path("response"));
                return false;
            }
            case "error" -> {
                failure = HttpErrors.inBand(data, redactor, ResponsesStreamMapper::errorCode);
                return false;
            }
            default -> {
                // content_part.*, output_text.done, annotations, hosted tools' progress: nothing to build
            }
        }
        return true;
    }

    @Override
    public boolean complete() {
        return status != null;
    }

    @Override
    public Outcome outcome() {
        if (failure != null) {
            return new Outcome.Failed(failure);
        }
        if (refusal != null) {
            return new Outcome.Failed(ProviderError.refusal(refusal));
        }
        if (status == null) {
            return new Outcome.Failed(new ProviderError(api + " stream ended before response.completed", null,
                    ErrorTypes.STREAM_TRUNCATED, null, null));
        }
        return switch (status) {
            case "completed", "in_progress", "queued" ->
                    new Outcome.Done(calledTools ? StopReason.TOOL_USE : StopReason.STOP);
            case "incomplete" -> "max_output_tokens".equals(incompleteReason) ? new Outcome.Done(StopReason.LENGTH)
                    : "content_filter".equals(incompleteReason) ? new Outcome.Failed(ProviderError.refusal(
                            "The provider's content filter stopped the reply (incomplete: content_filter)"))
                    : new Outcome.Failed(ProviderError.of("Response incomplete: "
                            + (incompleteReason == null ? "no reason given" : incompleteReason)));
            default -> new Outcome.Failed(ProviderError.of("Unhandled response status: " + status));
        };
    }

    private void reported(JsonNode response) {
        if (response.path("model").isTextual()) {
            reply.reportedModel(redactor.apply(response.path("model").textValue()));
        }
    }

    private Slot slot(int output, JsonNode item) {
        Slot slot = slots.get(output);
        if (slot != null) {
            return slot;
        }
        String type = item.path("type").asText("");
        slot = switch (type) {
            case "reasoning" -> new Slot(Kind.THINKING, reply.startThinking());
            case "message" -> new Slot(Kind.TEXT, reply.startText());
            case "function_call" -> toolSlot(item);
            default -> null; // hosted tools (web search, …) are the provider's business
        };
        if (slot != null) {
            slots.put(output, slot);
        }
        return slot;
    }

    private Slot toolSlot(JsonNode item) {
        calledTools = true;
        String itemId = text(item.path("id"));
        String callId = text(item.path("call_id"));
        String id = callId != null ? callId : itemId != null ? itemId : "call_" + (++generatedIds);
        if (itemId != null) {
            id = id + "|" + itemId;
        }
        Slot slot = new Slot(Kind.TOOL, reply.startToolCall(cut(id), cut(text(item.path("name")))));
        String arguments = text(item.path("arguments"));
        if (arguments != null) {
            reply.toolCallDelta(slot.index, arguments);
            slot.streamed = true;
        }
        return slot;
    }

    /** A delta for an item whose output_item.added never came opens its slot (a tolerant reader). */
    private void delta(int output, Kind kind, JsonNode delta) {
        if (!delta.isTextual() || delta.textValue().isEmpty()) {
            return;
        }
        Slot slot = slots.get(output);
        if (slot == null) {
            String type = switch (kind) {
                case THINKING -> "reasoning";
                case TEXT -> "message";
                case TOOL -> "function_call";
            };
            slot = slot(output, Json.mapper().createObjectNode().put("type", type));
        }
        if (slot.kind != kind) {
            return;
        }
        slot.streamed = true;
        switch (kind) {
            case THINKING -> reply.thinkingDelta(slot.index, delta.textValue());
            case TEXT -> reply.textDelta(slot.index, delta.textValue());
            case TOOL -> reply.toolCallDelta(slot.index, delta.textValue());
        }
    }

    /** Summary parts after the first are set apart by a blank line. */
    private void summaryPart(int output) {
        Slot slot = slots.get(output);
        if (slot != null && slot.kind == Kind.THINKING && slot.summaryParts++ > 0) {
            reply.thinkingDelta(slot.index, "\n\n");
        }
    }

    /** Arguments that arrived only whole (a done event without deltas). */
    private void unstreamed(int output, JsonNode arguments) {
        Slot slot = slots.get(output);
        if (slot != null && slot.kind == Kind.TOOL && !slot.streamed && arguments.isTextual()) {
            reply.toolCallDelta(slot.index, arguments.textValue());
            slot.streamed = true;
        }
    }

    private void itemDone(int output, JsonNode item) {
        Slot slot = slot(output, item);
        if (slot == null) {
            return;
        }
        slots.remove(output);
        switch (slot.kind) {
            case THINKING -> {
                reply.endThinking(slot.index);
                if (item.isObject()) {
                    reasoningItem(slot.index, (ObjectNode) item);
                }
            }
            case TEXT -> {
                reply.endText(slot.index);
                String id = text(item.path("id"));
                if (id != null) {
                    reply.signature(slot.index, ReasoningItems.textSignature(cut(id), cut(text(item.path("phase")))));
                }
            }
            case TOOL -> {
                if (!slot.streamed && item.path("arguments").isTextual()) {
                    reply.toolCallDelta(slot.index, item.path("arguments").textValue());
                }
                reply.endToolCall(slot.index);
            }
        }
    }

    /** Signed now when it carries its encrypted_content, else once response.completed may supply it. */
    private void reasoningItem(int index, ObjectNode item) {
        String id = text(item.path("id"));
        String json = item.toString();
        if (item.path("encrypted_content").isTextual() || id == null
                || pendingChars + json.length() > MAX_PENDING_CHARS) {
            reply.thinkingSignature(index, json);
            return;
        }
        pendingChars += json.length();
        pending.put(id, Map.entry(index, item));
    }

    private void finish(JsonNode response) {
        reported(response);
        JsonNode outputs = response.path("output");
        for (Map.Entry<String, Map.Entry<Integer, ObjectNode>> entry : pending.entrySet()) {
            ObjectNode item = entry.getValue().getValue();
            for (JsonNode done : outputs.isArray() ? outputs : Json.mapper().createArrayNode()) {
                if (entry.getKey().equals(text(done.path("id"))) && done.path("encrypted_content").isTextual()) {
                    item.set("encrypted_content", done.path("encrypted_content"));
                }
            }
            reply.thinkingSignature(entry.getValue().getKey(), item.toString());
        }
        pending.clear();
        usage(response.path("usage"));
        String reported = text(response.path("status"));
        status = reported == null ? "completed" : TextBounds.cut(redactor.apply(reported), TextBounds.MAX_REASON_CHARS);
        String reason = text(response.path("incomplete_details").path("reason"));
        incompleteReason = reason == null ? null : TextBounds.cut(redactor.apply(reason), TextBounds.MAX_REASON_CHARS);
    }

    /** response.failed: its {@code error} ({code, message}) classified like an HTTP error body. */
    private void failed(JsonNode response) {
        usage(response.path("usage"));
        JsonNode error = response.path("error");
        if (error.isObject()) {
            ObjectNode body = Json.mapper().createObjectNode();
            body.set("error", error);
            failure = HttpErrors.inBand(body.toString(), redactor, HttpErrors::errorCodeOrType);
        } else {
            failure = ProviderError.of(api + " response failed without error details");
        }
    }

    private void refusal(String delta) {
        if (refusal == null) {
            refusal = new StringBuilder();
        }
        int room = TextBounds.MAX_BODY_CHARS - refusal.length();
        if (room > 0 && !delta.isEmpty()) {
            refusal.append(TextBounds.cut(redactor.apply(delta), room));
        }
    }

    /** input = input_tokens − cached, cacheRead = cached, output = output_tokens (reasoning included). */
    private void usage(JsonNode usage) {
        if (!usage.isObject()) {
            return;
        }
        long in = Math.max(0, usage.path("input_tokens").asLong(0));
        long cached = Math.min(in, Math.max(0, usage.path("input_tokens_details").path("cached_tokens").asLong(0)));
        long out = Math.max(0, usage.path("output_tokens").asLong(0));
        long total = usage.path("total_tokens").asLong(in + out);
        reply.usage(Pricing.usage(model, in - cached, out, cached, 0, Math.max(0, total)));
    }

    /** The {@code error} event's top-level {@code code}, else {@code error.code}/{@code type}. */
    private static String errorCode(JsonNode root) {
        String code = text(root.path("code"));
        return code != null ? code : HttpErrors.errorCodeOrType(root);
    }

    private static String text(JsonNode node) {
        return node.isTextual() && !node.textValue().isEmpty() ? node.textValue() : null;
    }

    private static String cut(String value) {
        return value == null ? null : TextBounds.cut(value, TextBounds.MAX_TYPE_CHARS);
    }

    private ProviderError malformed(String data) {
        String shown = redactor.apply(data);
        shown = shown.length() > 200 ? shown.substring(0, 200) + "…" : shown;
        return new ProviderError("Malformed " + api + " stream event: " + shown, null, ErrorTypes.STREAM_TRUNCATED,
                null, null);
    }
}
