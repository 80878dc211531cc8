package dev.agentd.server.ai.anthropic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.AssistantMessageBuilder;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.Refusals;
import dev.agentd.server.ai.TextBounds;
import dev.agentd.server.ai.catalog.Pricing;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.Redactor;
import dev.agentd.server.ai.http.StreamMapper;
import dev.agentd.server.ai.sse.SseEvent;
import dev.agentd.server.ai.ErrorTypes;
import java.util.HashMap;
import java.util.Map;

/**
 * Maps the Messages API event stream onto the builder: {@code message_start} (usage),
 * {@code content_block_start/delta/stop} for text, thinking (with signature deltas), redacted
 * thinking and tool use (input_json_delta fragments), {@code message_delta} (stop reason, usage),
 * {@code message_stop}, {@code ping}, {@code message.model} (the model that answered), and in-band {@code error} events, whose JSON becomes the
 * errorMessage and whose {@code error.type} the errorType (no status: the stream itself was 200).
 * {@code stop_reason:"refusal"} ends the reply as an error typed {@link ErrorTypes#REFUSAL}, its
 * message naming {@code stop_details.category} and {@code explanation} when sent ({@link Refusals}); the
 * content streamed before it stays. The stop reason is the provider's text: it is redacted and cut
 * to {@link TextBounds#MAX_REASON_CHARS} as it is read.
 */
public final class AnthropicStreamMapper implements StreamMapper {
    private enum Kind { TEXT, THINKING, TOOL_CALL, CLOSED }

    private final AssistantMessageBuilder reply;
    private final Model model;
    private final Redactor redactor;
    /** Anthropic's content index → builder index and kind. */
    private final Map<Integer, Integer> indexes = new HashMap<>();
    private final Map<Integer, Kind> kinds = new HashMap<>();
    private long input;
    private long output;
    private long cacheRead;
    private long cacheWrite;
    private String stopReason;
    /** A refusal's {@code stop_details}: its category and explanation, redacted and bounded; else null. */
    private String refusalCategory;
    private String refusalExplanation;
    private boolean stopped;
    private ProviderError failure;

    public AnthropicStreamMapper(AssistantMessageBuilder reply, Model model, Redactor redactor) {
        this.reply = reply;
        this.model = model;
        this.redactor = redactor;
    }

    @Override
    public boolean onEvent(SseEvent event) {
        if (event.data().isBlank()) {
            return true;
        }
        JsonNode json;
        try {
            json = Json.mapper().readTree(event.data());
        } catch (JsonProcessingException e) {
            failure = malformed(event);
            return false;
        }
        if (json == null || !json.isObject()) {
            failure = malformed(event);
            return false;
        }
        String type = json.path("type").asText(event.event());
        if ("error".equals(event.event()) || "error".equals(type)) {
            failure = HttpErrors.inBand(event.data(), redactor, HttpErrors::errorDotType);
            return false;
        }
        switch (type) {
            case "message_start" -> {
                usage(json.path("message").path("usage"));
                JsonNode answered = json.path("message").path("model");
                if (answered.isTextual()) {
                    reply.reportedModel(redactor.apply(answered.textValue()));
                }
            }
            case "content_block_start" -> startBlock(json.path("index").asInt(), json.path("content_block"));
            case "content_block_delta" -> delta(json.path("index").asInt(), json.path("delta"));
            case "content_block_stop" -> stopBlock(json.path("index").asInt());
            case "message_delta" -> {
                JsonNode reason = json.path("delta").path("stop_reason");
                if (reason.isTextual()) {
                    stopReason = TextBounds.cut(redactor.apply(reason.textValue()), TextBounds.MAX_REASON_CHARS);
                }
                stopDetails(json.path("delta").path("stop_details"));
                usage(json.path("usage"));
            }
            case "message_stop" -> {
                stopped = true;
                return false;
            }
            default -> { } // ping, and event types added after this was written
        }
        return true;
    }

    @Override
    public boolean complete() {
        return stopped;
    }

    @Override
    public Outcome outcome() {
        if (failure != null) {
            return new Outcome.Failed(failure);
        }
        if (!stopped) {
            return new Outcome.Failed(new ProviderError("Stream terminated before message_stop", null,
                    ErrorTypes.STREAM_TRUNCATED, null, null));
        }
        if (stopReason == null) {
            return new Outcome.Done(StopReason.STOP);
        }
        return switch (stopReason) {
            case "end_turn", "stop_sequence", "pause_turn" -> new Outcome.Done(StopReason.STOP);
            case "max_tokens", "model_context_window_exceeded" -> new Outcome.Done(StopReason.LENGTH);
            case "tool_use" -> new Outcome.Done(StopReason.TOOL_USE);
            case "refusal" -> new Outcome.Failed(ProviderError.refusal(
                    Refusals.message(refusalCategory, refusalExplanation)));
            default -> new Outcome.Failed(ProviderError.of("Unhandled stop reason: " + stopReason));
        };
    }

    /** A refusal's details (null fields when it maps to no named category); other types are ignored. */
    private void stopDetails(JsonNode details) {
        if (!details.isObject()) {
            return;
        }
        JsonNode category = details.path("category");
        if (category.isTextual()) {
            refusalCategory = TextBounds.cut(category.textValue(), TextBounds.MAX_TYPE_CHARS);
        }
        JsonNode explanation = details.path("explanation");
        if (explanation.isTextual()) {
            refusalExplanation = TextBounds.cut(redactor.apply(explanation.textValue()), TextBounds.MAX_BODY_CHARS);
        }
    }

    private void startBlock(int index, JsonNode block) {
        String type = block.path("type").asText();
        switch (type) {
            case "text" -> {
                int at = reply.startText();
                track(index, at, Kind.TEXT);
                reply.textDelta(at, block.path("text").asText(""));
            }
            case "thinking" -> {
                int at = reply.startThinking();
                track(index, at, Kind.THINKING);
                reply.thinkingDelta(at, block.path("thinking").asText(""));
                String signature = block.path("signature").asText("");
                if (!signature.isEmpty()) {
                    reply.thinkingSignature(at, signature);
                }
            }
            case "redacted_thinking" -> {
                reply.redactedThinking(block.path("data").asText(""));
                track(index, reply.lastIndex(), Kind.CLOSED);
            }
            case "tool_use" -> {
                int at = reply.startToolCall(block.path("id").asText(null), block.path("name").asText(null));
                track(index, at, Kind.TOOL_CALL);
                JsonNode input = block.path("input");
                if (input.isObject() && !input.isEmpty()) {
                    reply.toolCallDelta(at, input.toString());
                }
            }
            default -> { } // server tools and other block types are not part of the agent's message
        }
    }

    private void delta(int index, JsonNode delta) {
        Integer at = indexes.get(index);
        if (at == null) {
            return;
        }
        switch (delta.path("type").asText()) {
            case "text_delta" -> reply.textDelta(at, delta.path("text").asText(""));
            case "thinking_delta" -> reply.thinkingDelta(at, delta.path("thinking").asText(""));
            case "signature_delta" -> reply.thinkingSignature(at, delta.path("signature").asText(""));
            case "input_json_delta" -> reply.toolCallDelta(at, delta.path("partial_json").asText(""));
            default -> { } // citations and future delta types
        }
    }

    private void stopBlock(int index) {
        Integer at = indexes.get(index);
        Kind kind = kinds.get(index);
        if (at == null || kind == null) {
            return;
        }
        switch (kind) {
            case TEXT -> reply.endText(at);
            case THINKING -> reply.endThinking(at);
            case TOOL_CALL -> reply.endToolCall(at);
            case CLOSED -> { }
        }
        kinds.put(index, Kind.CLOSED);
    }

    private void track(int index, int builderIndex, Kind kind) {
        indexes.put(index, builderIndex);
        kinds.put(index, kind);
    }

    /** message_start sets all four; message_delta overwrites the ones it reports (non-null). */
    private void usage(JsonNode usage) {
        if (!usage.isObject()) {
            return;
        }
        input = count(usage, "input_tokens", input);
        output = count(usage, "output_tokens", output);
        cacheRead = count(usage, "cache_read_input_tokens", cacheRead);
        cacheWrite = count(usage, "cache_creation_input_tokens", cacheWrite);
        reply.usage(Pricing.usage(model, input, output, cacheRead, cacheWrite,
                input + output + cacheRead + cacheWrite));
    }

    private static long count(JsonNode usage, String field, long current) {
        JsonNode value = usage.path(field);
        return value.isNumber() ? value.asLong() : current;
    }

    private ProviderError malformed(SseEvent event) {
        String data = redactor.apply(event.data());
        data = data.length() > 200 ? data.substring(0, 200) + "…" : data;
        // Named for the API: a fallback chain mixes APIs, and the error must say whose stream broke.
        return new ProviderError("Malformed " + AnthropicProvider.API + " stream event: " + data, null,
                ErrorTypes.STREAM_TRUNCATED, null, null);
    }
}
