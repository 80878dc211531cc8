package dev.agentd.server.ai.gemini;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * Maps Gemini's SSE chunks ({@code GenerateContentResponse}: {@code candidates[0].content.parts},
 * {@code finishReason}, {@code usageMetadata}, {@code modelVersion}, {@code promptFeedback}) onto
 * the builder. Parts with {@code thought: true} are thinking, other text parts text, a
 * {@code functionCall} part one whole tool call (Gemini sends its arguments in one piece). A
 * {@code thoughtSignature} is kept on the block of the part that carried it (an empty text part
 * carrying only a signature lends it to the open block), to be replayed next turn.
 *
 * <p>The stream has no terminal event: it is complete once a finish reason arrived, and a body
 * ending before one is a truncation. Safety, recitation and blocklist stops, and a prompt blocked
 * by {@code promptFeedback.blockReason}, fail the reply as {@link ErrorTypes#REFUSAL}. Provider
 * text is redacted and cut as it is read.
 */
public final class GeminiStreamMapper implements StreamMapper {
    /** Marks a thinking block that came without a signature: ContextConverter keeps it for this model. */
    static final String THOUGHT_MARKER = "gemini-thought";
    private static final Set<String> REFUSALS = Set.of("SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST",
            "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION");

    private final AssistantMessageBuilder reply;
    private final Model model;
    private final Redactor redactor;
    private final String api;
    private final Set<String> callIds = new HashSet<>();
    /** The open text or thinking block (-1: none) and whether it is thinking. */
    private int open = -1;
    private boolean openThinking;
    private String responseId;
    private String finishReason;
    private String blockReason;
    private ProviderError failure;

    GeminiStreamMapper(AssistantMessageBuilder reply, Model model, Redactor redactor) {
        this(reply, model, redactor, GeminiProvider.API);
    }

    /** @param api the API named in stream errors ({@code google-vertex} serves the same stream) */
    public GeminiStreamMapper(AssistantMessageBuilder reply, Model model, Redactor redactor, String api) {
        this.reply = reply;
        this.model = model;
        this.redactor = redactor;
        this.api = api;
    }

    @Override
    public boolean onEvent(SseEvent event) {
        String data = event.data().trim();
        if (data.isEmpty()) {
            return true;
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
            failure = HttpErrors.inBand(data, redactor, GeminiErrors::status);
            return false;
        }
        usage(chunk.path("usageMetadata"));
        JsonNode version = chunk.path("modelVersion");
        if (version.isTextual()) {
            reply.reportedModel(redactor.apply(version.textValue()));
        }
        if (responseId == null && chunk.path("responseId").isTextual()) {
            responseId = TextBounds.cut(chunk.path("responseId").textValue(), 32).replaceAll("[^A-Za-z0-9_-]", "");
        }
        JsonNode blocked = chunk.path("promptFeedback").path("blockReason");
        if (blocked.isTextual() && !blocked.textValue().isEmpty()) {
            blockReason = reason(blocked.textValue());
            return false;
        }
        JsonNode candidate = chunk.path("candidates").path(0);
        if (candidate.isObject()) {
            JsonNode parts = candidate.path("content").path("parts");
            if (parts.isArray()) {
                parts.forEach(this::part);
            }
            JsonNode reason = candidate.path("finishReason");
            if (reason.isTextual() && !reason.textValue().isEmpty()) {
                finishReason = reason(reason.textValue());
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
        if (blockReason != null) {
            return new Outcome.Failed(ProviderError.refusal("The provider blocked the prompt (promptFeedback.blockReason: "
                    + blockReason + ")"));
        }
        if (finishReason == null) {
            return new Outcome.Failed(new ProviderError(api + " stream ended without a finish reason",
                    null, ErrorTypes.STREAM_TRUNCATED, null, null));
        }
        if (REFUSALS.contains(finishReason)) {
            return new Outcome.Failed(ProviderError.refusal("The provider's safety filter stopped the reply (finishReason: "
                    + finishReason + ")"));
        }
        return switch (finishReason) {
            // Gemini says STOP after function calls too; the calls decide.
            case "STOP" -> new Outcome.Done(callIds.isEmpty() ? StopReason.STOP : StopReason.TOOL_USE);
            case "MAX_TOKENS" -> new Outcome.Done(StopReason.LENGTH);
            default -> new Outcome.Failed(ProviderError.of("Provider stopped with: " + finishReason));
        };
    }

    private void part(JsonNode part) {
        if (!part.isObject()) {
            return;
        }
        JsonNode signatureNode = part.path("thoughtSignature");
        String signature = signatureNode.isTextual() ? signatureNode.textValue() : null;
        JsonNode call = part.path("functionCall");
        if (call.isObject()) {
            toolCall(call, signature);
            return;
        }
        JsonNode text = part.path("text");
        if (!text.isTextual()) {
            return;
        }
        boolean thought = part.path("thought").asBoolean(false);
        if (text.textValue().isEmpty() && signature != null && open >= 0) {
            reply.signature(open, signature); // a signature-only part ends the block before it
            return;
        }
        if (open < 0 || openThinking != thought) {
            close();
            open = thought ? reply.startThinking() : reply.startText();
            openThinking = thought;
            if (thought) {
                reply.signature(open, THOUGHT_MARKER);
            }
        }
        if (thought) {
            reply.thinkingDelta(open, text.textValue());
        } else {
            reply.textDelta(open, text.textValue());
        }
        reply.signature(open, signature);
    }

    private void toolCall(JsonNode call, String signature) {
        close();
        JsonNode given = call.path("id");
        String id = given.isTextual() && !given.textValue().isEmpty()
                ? TextBounds.cut(given.textValue(), GeminiRequest.MAX_TOOL_ID) : null;
        if (id == null || !callIds.add(id)) {
            id = mintId();
            callIds.add(id);
        }
        JsonNode name = call.path("name");
        int index = reply.startToolCall(id, name.isTextual() ? TextBounds.cut(name.textValue(), 256) : "");
        JsonNode args = call.path("args");
        reply.toolCallDelta(index, args.isObject() ? args.toString() : "{}");
        reply.signature(index, signature);
        reply.endToolCall(index);
    }

    /**
     * Gemini before 3 sends calls without ids: one is made that stays with the call in the session
     * (replayed to Gemini 3, which pairs by id), unique across replies by the response id or a random part.
     */
    private String mintId() {
        String scope = responseId != null && !responseId.isEmpty() ? responseId
                : UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return "call_" + scope + "_" + (callIds.size() + 1);
    }

    private void close() {
        if (open >= 0) {
            if (openThinking) {
                reply.endThinking(open);
            } else {
                reply.endText(open);
            }
            open = -1;
        }
    }

    /** input = prompt − cached, output = candidates + thoughts, cacheRead = cached (as pi does). */
    private void usage(JsonNode usage) {
        if (!usage.isObject()) {
            return;
        }
        long prompt = usage.path("promptTokenCount").asLong(0);
        long cached = usage.path("cachedContentTokenCount").asLong(0);
        long output = usage.path("candidatesTokenCount").asLong(0) + usage.path("thoughtsTokenCount").asLong(0);
        long input = Math.max(0, prompt - cached);
        long total = usage.path("totalTokenCount").asLong(input + output + cached);
        reply.usage(Pricing.usage(model, input, output, cached, 0, total));
    }

    private String reason(String raw) {
        return TextBounds.cut(redactor.apply(raw), TextBounds.MAX_REASON_CHARS);
    }

    private ProviderError malformed(String data) {
        // Cut generously first (bounded work); a secret straddling that cut lies past what is shown.
        String shown = redactor.apply(TextBounds.cut(data, 4096));
        shown = shown.length() > 200 ? shown.substring(0, 200) + "…" : shown;
        return new ProviderError("Malformed " + api + " stream event: " + shown, null,
                ErrorTypes.STREAM_TRUNCATED, null, null);
    }
}
