package dev.agentd.server.ai.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.AssistantMessageBuilder;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.catalog.Pricing;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.Redactor;
import dev.agentd.server.ai.http.StreamMapper;
import dev.agentd.server.ai.sse.SseEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * Maps ConverseStream events (one per event-stream frame, see {@link AwsSupport#readFrames}) onto
 * the reply: contentBlockStart/Delta/Stop with text, toolUse and reasoningContent, messageStop's
 * stopReason, metadata's usage (which follows messageStop and ends the stream). An exception frame
 * fails the reply with the status AWS gives that exception over HTTP, so it classifies like one.
 */
final class BedrockStreamMapper implements StreamMapper {
    /** A stream with more content blocks than this is not a reply. */
    static final int MAX_BLOCKS = 4096;

    private final AssistantMessageBuilder reply;
    private final Model model;
    private final Redactor redactor;
    /** Converse's contentBlockIndex → the builder's index. */
    private final Map<Integer, Open> open = new HashMap<>();
    private StopReason stopReason;
    private ProviderError failure;
    private boolean done;
    private String unknownStop = "";

    private enum Kind { TEXT, THINKING, TOOL }

    /** An open block: what it is and its index in the reply. */
    private record Open(Kind kind, int index) {}

    BedrockStreamMapper(AssistantMessageBuilder reply, Model model, Redactor redactor) {
        this.reply = reply;
        this.model = model;
        this.redactor = redactor;
    }

    @Override
    public boolean onEvent(SseEvent event) {
        if (!"event".equals(event.id())) {
            failure = exception(event);
            return false;
        }
        JsonNode data = parse(event.data());
        switch (event.event()) {
            case "contentBlockStart" -> start(data);
            case "contentBlockDelta" -> delta(data);
            case "contentBlockStop" -> stop(data.path("contentBlockIndex").asInt());
            case "messageStop" -> {
                closeAll();
                stopReason = stopReason(data.path("stopReason").asText(""));
            }
            case "metadata" -> {
                usage(data.path("usage"));
                done = stopReason != null;
                return !done;
            }
            default -> { } // messageStart and events added later carry nothing we need
        }
        return failure == null;
    }

    @Override
    public Outcome outcome() {
        if (failure != null) {
            return new Outcome.Failed(failure);
        }
        if (stopReason == null) {
            return new Outcome.Failed(new ProviderError("Bedrock stream ended without messageStop", null,
                    ErrorTypes.STREAM_TRUNCATED, null, null));
        }
        if (stopReason == StopReason.ERROR) {
            return new Outcome.Failed(new ProviderError("Bedrock stopped the reply: " + unknownStop, null, null,
                    null, null));
        }
        return new Outcome.Done(stopReason);
    }

    @Override
    public boolean complete() {
        return done || failure != null;
    }

    private StopReason stopReason(String reason) {
        return switch (reason) {
            case "end_turn", "stop_sequence" -> StopReason.STOP;
            case "max_tokens", "model_context_window_exceeded" -> StopReason.LENGTH;
            case "tool_use" -> StopReason.TOOL_USE;
            case "guardrail_intervened", "content_filtered" -> {
                failure = ProviderError.refusal("Bedrock refused: " + reason);
                yield StopReason.ERROR;
            }
            default -> {
                unknownStop = reason.length() > 64 ? reason.substring(0, 64) : reason;
                yield StopReason.ERROR;
            }
        };
    }

    private void start(JsonNode data) {
        JsonNode use = data.path("start").path("toolUse");
        if (use.isObject()) {
            remember(data.path("contentBlockIndex").asInt(),
                    new Open(Kind.TOOL, reply.startToolCall(use.path("toolUseId").asText(""), use.path("name").asText(""))));
        }
    }

    private void delta(JsonNode data) {
        int key = data.path("contentBlockIndex").asInt();
        JsonNode delta = data.path("delta");
        Open block = open.get(key);
        if (delta.has("text")) {
            if (block == null || block.kind() != Kind.TEXT) {
                block = remember(key, new Open(Kind.TEXT, reply.startText()));
            }
            reply.textDelta(block.index(), delta.path("text").asText(""));
        } else if (delta.has("toolUse")) {
            if (block == null || block.kind() != Kind.TOOL) {
                block = remember(key, new Open(Kind.TOOL, reply.startToolCall("", "")));
            }
            reply.toolCallDelta(block.index(), delta.path("toolUse").path("input").asText(""));
        } else if (delta.has("reasoningContent")) {
            if (block == null || block.kind() != Kind.THINKING) {
                block = remember(key, new Open(Kind.THINKING, reply.startThinking()));
            }
            JsonNode reasoning = delta.path("reasoningContent");
            if (reasoning.hasNonNull("text")) {
                reply.thinkingDelta(block.index(), reasoning.path("text").asText());
            }
            if (reasoning.hasNonNull("signature")) {
                reply.thinkingSignature(block.index(), reasoning.path("signature").asText());
            }
            if (reasoning.hasNonNull("redactedContent")) {
                reply.redactedThinking(reasoning.path("redactedContent").asText());
            }
        }
    }

    private Open remember(int key, Open block) {
        if (open.size() >= MAX_BLOCKS) {
            throw new IllegalStateException("too many content blocks");
        }
        Open previous = open.put(key, block);
        if (previous != null) {
            end(previous);
        }
        return block;
    }

    private void stop(int key) {
        Open block = open.remove(key);
        if (block != null) {
            end(block);
        }
    }

    private void closeAll() {
        open.values().forEach(this::end);
        open.clear();
    }

    private void end(Open block) {
        switch (block.kind()) {
            case TEXT -> reply.endText(block.index());
            case THINKING -> reply.endThinking(block.index());
            case TOOL -> reply.endToolCall(block.index());
        }
    }

    private void usage(JsonNode usage) {
        if (!usage.isObject()) {
            return;
        }
        long input = usage.path("inputTokens").asLong();
        long output = usage.path("outputTokens").asLong();
        long cacheRead = usage.path("cacheReadInputTokens").asLong();
        long cacheWrite = usage.path("cacheWriteInputTokens").asLong();
        long total = usage.path("totalTokens").asLong(input + output + cacheRead + cacheWrite);
        reply.usage(Pricing.usage(model, input, output, cacheRead, cacheWrite, total));
    }

    /** An exception frame, shaped like the HTTP error AWS returns for the same exception. */
    private ProviderError exception(SseEvent event) {
        String type = event.event();
        Integer status = status(type);
        ProviderError inBand = HttpErrors.inBand(event.data(), redactor, root -> null);
        String message = (status == null ? "" : status + " ") + type + ": " + inBand.message();
        return new ProviderError(message, status, type, inBand.retryAfterMs(), null);
    }

    /** The HTTP status of each ConverseStream exception (the Bedrock API reference). */
    static Integer status(String exceptionType) {
        return switch (exceptionType) {
            case "throttlingException", "modelNotReadyException" -> 429;
            case "serviceUnavailableException" -> 503;
            case "internalServerException" -> 500;
            case "modelStreamErrorException", "modelErrorException" -> 424;
            case "modelTimeoutException" -> 408;
            case "validationException", "serviceQuotaExceededException" -> 400;
            case "accessDeniedException" -> 403;
            case "resourceNotFoundException" -> 404;
            default -> null;
        };
    }

    private static JsonNode parse(String data) {
        try {
            return Json.mapper().readTree(data);
        } catch (Exception e) {
            throw new IllegalStateException("not JSON");
        }
    }
}
