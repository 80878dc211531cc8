package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.ai.TextBounds;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Context-overflow detection (SPEC §8.1): the providers' overflow codes and phrasings of "the
 * prompt is larger than the window", and the silent case where a successful reply reports more
 * input tokens than the model's context window. Overflow goes to compaction, never to retry. The
 * message is cut to {@link TextBounds#MAX_ERROR_MESSAGE_CHARS} first and the one gap in a phrase is
 * bounded, so matching is linear in the (bounded) text.
 */
public final class OverflowDetector {
    private static final Set<String> OVERFLOW_TYPES = Set.of("context_length_exceeded", "request_too_large",
            "model_context_window_exceeded");
    static final Phrases PHRASES = Phrases.of(List.of("too long", "context", "input token count",
            "maximum prompt length", "reduce the length", "exceeds the limit", "exceeded model token limit",
            "too many tokens", "token limit exceeded", "request_too_large"),
            "prompt is too long",
            "input is too long for requested model",
            "exceeds the context window",
            "input token count.{0,200}?exceeds the maximum",
            "maximum prompt length is \\d",
            "reduce the length of the messages",
            "maximum context length is \\d++ tokens",
            "exceeds the limit of \\d",
            "exceeds the available context size",
            "greater than the context length",
            "context window exceeds limit",
            "exceeded model token limit",
            "too large for model with \\d++ maximum context length",
            "model_context_window_exceeded",
            "context[_ ]length[_ ]exceeded",
            "too many tokens",
            "token limit exceeded",
            "request_too_large");
    /** Cerebras-style bodiless 400/413, and any 413 (request entity too large). */
    private static final Pattern BODILESS = Pattern.compile("^4(00|13)\\s*+(status code)?\\s*+\\(no body\\)|^413\\b");

    private OverflowDetector() {}

    public static boolean isOverflow(AgentMessage.Assistant message, long contextWindow) {
        if (message.stopReason() == StopReason.ERROR) {
            if (message.errorStatus() != null && message.errorStatus() == 413) {
                return true;
            }
            String type = TextBounds.cut(message.errorType(), TextBounds.MAX_TYPE_CHARS);
            if (type != null && OVERFLOW_TYPES.contains(type.toLowerCase(Locale.ROOT))) {
                return true;
            }
            // A 429 is a rate limit whatever its words: Bedrock throttles with "Too many tokens,
            // please wait before trying again", which is no overflow (structured facts beat text).
            if (message.errorStatus() != null && message.errorStatus() == 429) {
                return false;
            }
            String text = TextBounds.cut(message.errorMessage(), TextBounds.MAX_ERROR_MESSAGE_CHARS);
            if (text == null) {
                return false;
            }
            String lower = text.toLowerCase(Locale.ROOT); // the patterns are lower case (cheaper than CASE_INSENSITIVE)
            return PHRASES.in(lower) || BODILESS.matcher(lower.trim()).find();
        }
        return message.stopReason() == StopReason.STOP && contextWindow > 0
                && message.usage().input() + message.usage().cacheRead() > contextWindow;
    }
}
