package dev.agentd.protocol.command;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One scripted reply of the faux provider (SPEC §6.3). A step is a text reply ({@code text},
 * optionally with {@code thinking}), one or more tool calls ({@code toolCall}/{@code toolCalls},
 * optionally after some text), or an error ({@code error} = the errorMessage, with optional
 * {@code status}, {@code errorType} and {@code retryAfterMs}; with {@code text} too, the text is
 * streamed first and the reply fails in mid-stream; with tool calls too, the text and the calls
 * complete and then the stream fails). {@code delayMs} waits before the
 * reply starts; {@code chunkDelayMs} paces its deltas. {@code model} (script files only) binds the
 * step to one faux model id. {@code inputTokens}/{@code outputTokens} override the estimated usage.
 */
public record FauxStep(
        String model,
        String text,
        String thinking,
        ToolCallSpec toolCall,
        List<ToolCallSpec> toolCalls,
        String error,
        Integer status,
        String errorType,
        Long retryAfterMs,
        Long delayMs,
        Long chunkDelayMs,
        Long inputTokens,
        Long outputTokens) {

    public static FauxStep text(String text) {
        return new FauxStep(null, text, null, null, null, null, null, null, null, null, null, null, null);
    }

    public static FauxStep error(String errorMessage, Integer status) {
        return new FauxStep(null, null, null, null, null, errorMessage, status, null, null, null, null, null, null);
    }

    public static FauxStep toolCall(String name, JsonNode arguments) {
        return new FauxStep(null, null, null, new ToolCallSpec(null, name, arguments), null, null, null, null,
                null, null, null, null, null);
    }

    public FauxStep withDelayMs(long delay) {
        return new FauxStep(model, text, thinking, toolCall, toolCalls, error, status, errorType, retryAfterMs,
                delay, chunkDelayMs, inputTokens, outputTokens);
    }

    public FauxStep withChunkDelayMs(long delay) {
        return new FauxStep(model, text, thinking, toolCall, toolCalls, error, status, errorType, retryAfterMs,
                delayMs, delay, inputTokens, outputTokens);
    }

    public FauxStep withRetryAfterMs(long hint) {
        return new FauxStep(model, text, thinking, toolCall, toolCalls, error, status, errorType, hint,
                delayMs, chunkDelayMs, inputTokens, outputTokens);
    }

    /** A scripted tool call; {@code id} is generated when absent. */
    public record ToolCallSpec(String id, String name, JsonNode arguments) {}
}
