package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.ai.ErrorTypes;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides whether a failed reply is worth retrying on the same model (SPEC §5.2). Structured facts
 * win over text: the provider's {@code x-should-retry} header, the HTTP status, the provider's error
 * type or code; only when none is known do the text patterns decide. Some classes are never
 * retried whatever else matches: aborted replies, context overflow (compaction handles it) and
 * billing, quota or spend exhaustion, even when it arrives as a 429.
 */
public final class ErrorClassifier {
    private static final Set<Integer> RETRYABLE_STATUS = Set.of(408, 409, 425, 429, 500, 502, 503, 504, 520, 521,
            522, 523, 524, 529);
    private static final Set<String> RETRYABLE_TYPES = Set.of(
            // Anthropic (also in-band SSE error events on a 200 stream)
            "overloaded_error", "rate_limit_error", "api_error",
            // OpenAI and compatible servers
            "rate_limit_exceeded", "server_error", "server_is_overloaded", "slow_down",
            // failures agentd raises itself
            ErrorTypes.CONNECTION, ErrorTypes.CONNECT_TIMEOUT, ErrorTypes.STREAM_START_TIMEOUT,
            ErrorTypes.STREAM_IDLE_TIMEOUT, ErrorTypes.STREAM_TRUNCATED);
    private static final Set<String> FINAL_TYPES = Set.of("authentication_error", "permission_error",
            "invalid_request_error", "not_found_error", "billing_error", "insufficient_quota",
            "invalid_api_key", "context_length_exceeded", "request_too_large");

    /** Billing, quota and spend exhaustion: retrying the same account never helps. */
    private static final Pattern EXHAUSTED = Pattern.compile(
            "insufficient_quota|enforced_spend_limit_reached|[a-z_]*spend_limit_exceeded|credit balance|billing"
                    + "|exceeded your current quota|quota exceeded|out of budget|purchase credits|credits required",
            Pattern.CASE_INSENSITIVE);
    /** "&lt;status&gt; &lt;body&gt;" messages of statuses that are never transient. */
    private static final Pattern FINAL_STATUS_PREFIX = Pattern.compile("^(400|401|403|404)\\b");
    private static final Pattern TRANSIENT_TEXT = Pattern.compile(String.join("|",
            "overloaded",
            "rate.?limit", "usage.?limit", "too many requests",
            "(?<![\\w-])(?:429|500|502|503|504)(?![\\w-])",
            "service.?unavailable", "server.?error", "internal.?error",
            "connection.?(?:error|refused|reset)", "fetch failed", "other side closed", "socket hang up",
            "terminated", "stream idle timeout", "stream start timeout",
            "upstream.?connect", "reset before headers",
            "retry.?delay"), Pattern.CASE_INSENSITIVE);
    private static final Pattern USAGE_LIMIT = Pattern.compile("usage.?limit|usage_limit_reached|limit_reached",
            Pattern.CASE_INSENSITIVE);

    private ErrorClassifier() {}

    /** True when the reply failed transiently and a same-model retry may succeed. */
    public static boolean isRetryable(AgentMessage.Assistant message, long contextWindow) {
        if (message.stopReason() != StopReason.ERROR) {
            return false;
        }
        String text = message.errorMessage();
        if (text == null || text.isBlank()) {
            return false;
        }
        if (OverflowDetector.isOverflow(message, contextWindow) || isExhausted(message)) {
            return false;
        }
        if (message.shouldRetry() != null) {
            return message.shouldRetry();
        }
        String type = message.errorType() == null ? null : message.errorType().toLowerCase(Locale.ROOT);
        if (type != null && FINAL_TYPES.contains(type)) {
            return false;
        }
        if (message.errorStatus() != null) {
            return RETRYABLE_STATUS.contains(message.errorStatus()) || (type != null && RETRYABLE_TYPES.contains(type));
        }
        if (type != null && RETRYABLE_TYPES.contains(type)) {
            return true;
        }
        if (FINAL_STATUS_PREFIX.matcher(text.trim()).find()) {
            return false;
        }
        return TRANSIENT_TEXT.matcher(text).find();
    }

    /** Billing, quota or spend exhaustion (by error type/code or text). */
    public static boolean isExhausted(AgentMessage.Assistant message) {
        return matches(EXHAUSTED, message.errorType()) || matches(EXHAUSTED, message.errorMessage());
    }

    /** A usage-limit error: the account's plan window is spent; another credential may still work. */
    public static boolean isUsageLimit(AgentMessage.Assistant message) {
        return matches(USAGE_LIMIT, message.errorType()) || matches(USAGE_LIMIT, message.errorMessage());
    }

    private static boolean matches(Pattern pattern, String text) {
        return text != null && pattern.matcher(text).find();
    }
}
