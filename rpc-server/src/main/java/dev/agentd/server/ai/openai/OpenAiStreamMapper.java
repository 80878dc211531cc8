package dev.agentd.server.ai.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.AssistantMessageBuilder;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.TextBounds;
import dev.agentd.server.ai.catalog.Pricing;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.Redactor;
import dev.agentd.server.ai.http.StreamMapper;
import dev.agentd.server.ai.sse.SseEvent;
import dev.agentd.server.ai.ErrorTypes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps chat-completion chunks onto the builder: {@code delta.content} → text,
 * {@code delta.reasoning_content}/{@code reasoning}/{@code reasoning_text} (DeepSeek, vLLM,
 * llama.cpp, OpenRouter) → thinking, {@code delta.tool_calls[]} fragments → tool calls keyed by
 * their {@code index} (so interleaved calls stay apart), {@code finish_reason}, the usage chunk,
 * {@code [DONE]}, the chunk's {@code model} (the model that answered), and an in-band
 * {@code {"error":…}} chunk.
 *
 * <p>A refusal ({@code delta.refusal}, streamed in fragments like content) is not reply text: the
 * fragments are collected, and when the stream ends the reply fails with the refusal text as its
 * errorMessage and errorType {@link ErrorTypes#REFUSAL}, whatever the finish reason says. Content
 * streamed before it stays in the message (the client has already seen it). An in-band error
 * still wins, since it names what went wrong; so does a refusal over a truncated stream, since the
 * model's decision is known. {@code finish_reason:"content_filter"} is a refusal too (by the
 * provider's filter rather than the model). Provider text is redacted and cut as it is read.
 */
final class OpenAiStreamMapper implements StreamMapper {
    private static final List<String> REASONING_FIELDS = List.of("reasoning_content", "reasoning", "reasoning_text");

    private final AssistantMessageBuilder reply;
    private final Model model;
    private final Redactor redactor;
    private final Map<Integer, Integer> toolCalls = new HashMap<>();
    private int textIndex = -1;
    private int thinkingIndex = -1;
    private int generatedIds;
    private String finishReason;
    /** The refusal so far (null: none), at most {@link TextBounds#MAX_BODY_CHARS}. */
    private StringBuilder refusal;
    private boolean done;
    private ProviderError failure;

    OpenAiStreamMapper(AssistantMessageBuilder reply, Model model, Redactor redactor) {
        this.reply = reply;
        this.model = model;
        this.redactor = redactor;
    }

    @Override
    public boolean onEvent(SseEvent event) {
        String data = event.data().trim();
        if (data.isEmpty()) {
            return true;
        }
        if (data.equals("[DONE]")) {
            done = true;
            return false;
        }
        JsonNode chunk;
        try {
            chunk = Json.mapper().readTree(data);
        } catch (JsonProcessingException e) {
            failure = malformed(data);
            return false;
        }
        if (chunk == null || !chunk.isObject()) {
            failure = malformed(data);
            return false;
        }
        JsonNode error = chunk.path("error");
        if (!error.isMissingNode() && !error.isNull()) {
            failure = HttpErrors.inBand(data, redactor, HttpErrors::errorCodeOrType);
            return false;
        }
        usage(chunk.path("usage"));
        JsonNode answered = chunk.path("model");
        if (answered.isTextual()) {
            reply.reportedModel(redactor.apply(answered.textValue()));
        }
        JsonNode choice = chunk.path("choices").path(0);
        if (choice.isObject()) {
            delta(choice.path("delta"));
            JsonNode reason = choice.path("finish_reason");
            if (reason.isTextual() && !reason.textValue().isEmpty()) {
                finishReason = TextBounds.cut(redactor.apply(reason.textValue()), TextBounds.MAX_REASON_CHARS);
            }
        }
        return true;
    }

    @Override
    public boolean complete() {
        return finishReason != null;
    }

    @Override
    public Outcome outcome() {
        if (failure != null) {
            return new Outcome.Failed(failure);
        }
        if (refusal != null) {
            return new Outcome.Failed(ProviderError.refusal(refusal));
        }
        if (!done && finishReason == null) {
            return new Outcome.Failed(new ProviderError("Stream terminated before [DONE]", null,
                    ErrorTypes.STREAM_TRUNCATED, null, null));
        }
        boolean calledTools = !toolCalls.isEmpty();
        if (finishReason == null) {
            return new Outcome.Done(calledTools ? StopReason.TOOL_USE : StopReason.STOP);
        }
        return switch (finishReason) {
            // Some servers report "stop" after tool calls; the calls decide.
            case "stop", "end_turn", "eos" -> new Outcome.Done(calledTools ? StopReason.TOOL_USE : StopReason.STOP);
            case "length" -> new Outcome.Done(StopReason.LENGTH);
            case "tool_calls", "function_call" -> new Outcome.Done(StopReason.TOOL_USE);
            case "content_filter" -> new Outcome.Failed(ProviderError.refusal(
                    "The provider's content filter stopped the reply (finish_reason: content_filter)"));
            default -> new Outcome.Failed(ProviderError.of("Unhandled stop reason: " + finishReason));
        };
    }

    private void delta(JsonNode delta) {
        if (!delta.isObject()) {
            return;
        }
        for (String field : REASONING_FIELDS) {
            JsonNode reasoning = delta.path(field);
            if (reasoning.isTextual() && !reasoning.textValue().isEmpty()) {
                thinking(field, reasoning.textValue());
                break;
            }
        }
        JsonNode content = delta.path("content");
        if (content.isTextual() && !content.textValue().isEmpty()) {
            text(content.textValue());
        }
        JsonNode refused = delta.path("refusal");
        if (refused.isTextual() && !refused.textValue().isEmpty()) {
            refusal(refused.textValue());
        }
        JsonNode calls = delta.path("tool_calls");
        if (calls.isArray()) {
            for (int position = 0; position < calls.size(); position++) {
                toolCall(calls.get(position), position);
            }
        }
    }

    private void text(String delta) {
        closeThinking();
        if (textIndex < 0) {
            textIndex = reply.startText();
        }
        reply.textDelta(textIndex, delta);
    }

    /** Each fragment is redacted before it is cut (the whole message is redacted again at the end). */
    private void refusal(String delta) {
        if (refusal == null) {
            refusal = new StringBuilder();
        }
        int room = TextBounds.MAX_BODY_CHARS - refusal.length();
        if (room > 0) {
            refusal.append(TextBounds.cut(redactor.apply(delta), room));
        }
    }

    private void thinking(String field, String delta) {
        closeText();
        if (thinkingIndex < 0) {
            thinkingIndex = reply.startThinking();
            // Marks where the reasoning came from; ContextConverter keeps such blocks for this model only.
            reply.thinkingSignature(thinkingIndex, field);
        }
        reply.thinkingDelta(thinkingIndex, delta);
    }

    private void toolCall(JsonNode call, int position) {
        int key = call.path("index").isInt() ? call.path("index").asInt() : position;
        Integer at = toolCalls.get(key);
        JsonNode function = call.path("function");
        if (at == null) {
            closeText();
            closeThinking();
            String id = call.path("id").isTextual() && !call.path("id").textValue().isEmpty()
                    ? call.path("id").textValue() : "call_" + (++generatedIds);
            at = reply.startToolCall(id, function.path("name").asText(null));
            toolCalls.put(key, at);
        }
        JsonNode arguments = function.path("arguments");
        if (arguments.isTextual()) {
            reply.toolCallDelta(at, arguments.textValue());
        } else if (arguments.isObject()) {
            reply.toolCallDelta(at, arguments.toString()); // a few servers send the object itself
        }
    }

    private void closeText() {
        if (textIndex >= 0) {
            reply.endText(textIndex);
            textIndex = -1;
        }
    }

    private void closeThinking() {
        if (thinkingIndex >= 0) {
            reply.endThinking(thinkingIndex);
            thinkingIndex = -1;
        }
    }

    /** input = prompt − cached, cacheRead = cached, output = completion + reasoning (as pi does). */
    private void usage(JsonNode usage) {
        if (!usage.isObject()) {
            return;
        }
        long prompt = usage.path("prompt_tokens").asLong(0);
        long completion = usage.path("completion_tokens").asLong(0);
        JsonNode cachedNode = usage.path("prompt_tokens_details").path("cached_tokens");
        long cached = cachedNode.isNumber() ? cachedNode.asLong() : usage.path("prompt_cache_hit_tokens").asLong(0);
        long reasoning = usage.path("completion_tokens_details").path("reasoning_tokens").asLong(0);
        long input = Math.max(0, prompt - cached);
        long output = completion + reasoning;
        reply.usage(Pricing.usage(model, input, output, cached, 0, input + output + cached));
    }

    private ProviderError malformed(String data) {
        String shown = redactor.apply(data);
        shown = shown.length() > 200 ? shown.substring(0, 200) + "…" : shown;
        // Named for the API: a fallback chain mixes APIs, and the error must say whose stream broke.
        return new ProviderError("Malformed " + OpenAiCompletionsProvider.API + " stream event: " + shown, null,
                ErrorTypes.STREAM_TRUNCATED, null, null);
    }
}
