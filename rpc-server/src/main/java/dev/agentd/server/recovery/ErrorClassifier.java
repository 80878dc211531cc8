package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.Refusals;
import dev.agentd.server.ai.TextBounds;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Classifies a reply's failure into one {@link ErrorClass} (FALLBACK.md §3, SPEC §5.2). Structured
 * facts win over text: the provider's {@code x-should-retry} header, the HTTP status, the
 * provider's error type or code; only when none is known do the text patterns decide. The order:
 * <ol>
 *   <li>not an error → {@code NONE} / {@code ABORTED}; {@code errorType:"refusal"} → {@code REFUSAL};</li>
 *   <li>billing, quota or spend exhaustion (type or text, even as a 429) → {@code BILLING} / {@code QUOTA} —
 *       except a hinted rate limit ({@link #hintedRateLimit}), whose quota or billing words are only
 *       text: a per-minute "quota exceeded" with {@code Retry-After} is waited out like any hinted 429;</li>
 *   <li>context overflow (SPEC §8.1) → {@code OVERFLOW}; an empty errorMessage → {@code HARD};</li>
 *   <li>retryable or not, by {@code x-should-retry}, then the type, then the status, then the text;</li>
 *   <li>a retryable error is {@code USAGE_LIMIT}, {@code RATE_LIMITED} or {@code TRANSIENT}; a final one
 *       {@code CREDENTIAL_REJECTED}, {@code ACCESS_DENIED}, {@code REFUSAL} or {@code HARD}.</li>
 * </ol>
 * The text is the provider's: the type and message are cut ({@link TextBounds}) before any pattern
 * sees them, and no pattern nests quantifiers or scans unboundedly from one start position, so a
 * match costs linear time.
 */
public final class ErrorClassifier {
    private static final Set<Integer> RETRYABLE_STATUS = Set.of(408, 409, 425, 429, 500, 502, 503, 504, 520, 521,
            522, 523, 524, 529);
    private static final Set<String> RETRYABLE_TYPES = Set.of(
            // Anthropic (also in-band SSE error events on a 200 stream)
            "overloaded_error", "rate_limit_error", "api_error",
            // OpenAI and compatible servers
            "rate_limit_exceeded", "server_error", "server_is_overloaded", "slow_down",
            // Gemini's google.rpc status names (error.status, lower-cased)
            "unavailable", "internal", "deadline_exceeded", "resource_exhausted",
            // Bedrock's exceptions (x-amzn-ErrorType, or an exception frame), lower-cased
            "throttlingexception", "serviceunavailableexception", "modelnotreadyexception",
            "internalserverexception", "modelstreamerrorexception", "modeltimeoutexception",
            // failures agentd raises itself
            ErrorTypes.CONNECTION, ErrorTypes.CONNECT_TIMEOUT, ErrorTypes.STREAM_START_TIMEOUT,
            ErrorTypes.STREAM_IDLE_TIMEOUT, ErrorTypes.STREAM_TRUNCATED);
    private static final Set<String> FINAL_TYPES = Set.of("authentication_error", "permission_error",
            "invalid_request_error", "not_found_error", "billing_error", "insufficient_quota",
            "invalid_api_key", "context_length_exceeded", "request_too_large",
            // Gemini: a bad request (an over-long context is found as overflow before this), key, access
            "invalid_argument", "failed_precondition", "unauthenticated", "permission_denied",
            // Bedrock: a bad request, a missing model, keys or access refused
            "validationexception", "resourcenotfoundexception", "accessdeniedexception",
            "unrecognizedclientexception", "invalidsignatureexception", "expiredtokenexception",
            // a reply cut at its bound: a retry would stream the same again (issue 22)
            ErrorTypes.REPLY_TOO_LARGE);
    private static final Set<String> CREDENTIAL_TYPES = Set.of("authentication_error", "invalid_api_key",
            "invalid_grant", "unauthenticated", "unrecognizedclientexception", "invalidsignatureexception",
            "expiredtokenexception");
    private static final Set<String> ACCESS_TYPES = Set.of("permission_error", "permission_denied",
            "accessdeniedexception");
    private static final Set<String> RATE_LIMIT_TYPES = Set.of("rate_limit_error", "rate_limit_exceeded",
            "too_many_requests", "resource_exhausted", "throttlingexception");
    /**
     * The longest server hint that still reads as a rate-limit window rather than an exhausted
     * quota: the default probe-back boundary ({@link HintTiers.Limits#DEFAULTS}), past which a
     * 429 is answered by a switch without probing anyway.
     */
    static final long SHORT_HINT_MS = HintTiers.Limits.DEFAULTS.probeBackMaxMs();
    /**
     * Spend and balance codes inside the body: structured facts of their own, so they stay
     * exhaustion even on a hinted 429 (Anthropic's workspace spend limit comes as a
     * {@code rate_limit_error}).
     */
    static final Phrases EXHAUSTION_CODES = Phrases.of(List.of("spend_limit", "insufficient_quota", "billing_"),
            "spend_limit", "insufficient_quota", "billing_(?:error|hard_limit|not_active)");

    /**
     * Gemini's 429 status. A {@code QuotaFailure} whose quotaId is a daily one ("PerDay") is
     * exhaustion even with a short {@code RetryInfo} (Google sends one either way); a per-minute
     * one is a hinted rate limit ({@link #hintedRateLimit}).
     */
    private static final String RESOURCE_EXHAUSTED = "resource_exhausted";
    static final Phrases DAILY_QUOTA = Phrases.of(List.of("perday"), "perday");
    /** A quota counted per minute or second (Google's metric names and their prose). */
    static final Phrases SHORT_WINDOW_QUOTA = Phrases.of(List.of("per_minute", "per minute", "perminute",
            "per_second", "per second", "persecond"), "per[_ ]?(?:minute|second)");
    /** Quota, budget and spend limits (checked before billing: a spend-limit body may say "billing"). */
    static final Phrases QUOTA = Phrases.of(List.of("spend_limit", "quota", "budget"),
            "enforced_spend_limit_reached", "spend_limit_exceeded", "quota exceeded", "out of budget",
            // Bedrock's ServiceQuotaExceededException ("Too many tokens per day")
            "servicequotaexceeded");
    /** Money: credit balance, insufficient quota (OpenAI's code for an unpaid account), billing. */
    static final Phrases BILLING = Phrases.of(List.of("quota", "credit", "billing"),
            "insufficient_quota", "credit balance", "billing", "exceeded your current quota", "purchase credits",
            "credits required");
    /** "&lt;status&gt; &lt;body&gt;" messages of statuses that are never transient. */
    private static final Pattern FINAL_STATUS_PREFIX = Pattern.compile("^(400|401|403|404)\\b");
    static final Phrases TRANSIENT_TEXT = Phrases.of(List.of("overloaded", "rate", "usage", "too many", "429", "500",
            "502", "503", "504", "520", "service", "server", "internal", "connection", "fetch failed",
            "other side closed", "socket", "terminated", "stream", "upstream", "reset before headers", "retry",
            "econn", "epipe", "etimedout", "enotfound", "eai_again", "getaddrinfo", "cut short"),
            "overloaded",
            "rate.?limit", "usage.?limit", "too many requests",
            "(?<![\\w-])(?:429|500|502|503|504|520)(?![\\w-])",
            "service.?unavailable", "server.?error", "internal.?error",
            "connection.?(?:error|refused|reset|closed)", "fetch failed", "other side closed", "socket hang up",
            // pi 1.x: a bare socket error code, a dropped socket, DNS failures, a stream cut short
            "\\b(?:econnreset|econnrefused|econnaborted|epipe|etimedout|enotfound|eai_again)\\b",
            "socket connection was closed", "getaddrinfo", "cut short",
            "terminated", "stream idle timeout", "stream start timeout",
            "upstream.?connect", "reset before headers",
            "retry.?delay");
    /** The 429 class (FALLBACK.md §3): whole-number 429 only, so a request id containing it is not one. */
    static final Phrases RATE_LIMIT_TEXT = Phrases.of(List.of("rate", "too many", "resource", "429"),
            "rate.?limit", "too many requests", "resource.?exhausted", "(?<![\\w-])429(?![\\w-])");
    static final Phrases USAGE_LIMIT = Phrases.of(List.of("usage", "limit_reached"),
            "usage.?limit", "usage_limit_reached", "limit_reached");
    /** A limit naming a model (or a model family) leaves the provider's other models usable. */
    static final Phrases MODEL_SCOPED = Phrases.of(List.of("model", "premium", "opus", "sonnet", "haiku", "fable",
            "mythos"), "model", "premium", "opus", "sonnet", "haiku", "fable", "mythos");
    static final Phrases CREDENTIAL_TEXT = Phrases.of(List.of("unauthori", "authentication", "api", "revoked",
            "invalid_grant"),
            "unauthori[sz]ed", "authentication.(?:error|failed)", "invalid.x-api-key", "invalid.api.key",
            "incorrect api key", "token has been revoked", "invalid_grant",
            // Gemini answers a bad key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID
            "api key not valid", "api_key_invalid");
    static final Phrases ACCESS_TEXT = Phrases.of(List.of("forbidden", "access denied", "not entitled",
            "insufficient permissions", "not available"),
            "forbidden", "access denied", "not entitled", "insufficient permissions",
            "model (?:is )?not available (?:for|on|with) (?:your|this) (?:plan|account|subscription)");
    /** Anthropic's usage-policy block; the gap is bounded, so each start position costs a constant. */
    static final Phrases REFUSAL_TEXT = Phrases.of(List.of("triggered restrictions on", "usage policy"),
            "triggered restrictions on", "blocked under .{0,80}?usage policy");

    private ErrorClassifier() {}

    /** The reply's class and usage-limit scope (see the class comment for the order of the checks). */
    public static Classification classify(AgentMessage.Assistant message, long contextWindow) {
        if (message.stopReason() == StopReason.ABORTED) {
            return Classification.of(ErrorClass.ABORTED);
        }
        if (message.stopReason() != StopReason.ERROR) {
            return Classification.of(OverflowDetector.isOverflow(message, contextWindow)
                    ? ErrorClass.OVERFLOW : ErrorClass.NONE);
        }
        // Lower-cased once: the patterns are written in lower case and match case-sensitively,
        // which costs far less per position than CASE_INSENSITIVE on a 2000-character body.
        String type = lower(TextBounds.cut(message.errorType(), TextBounds.MAX_TYPE_CHARS));
        String text = lower(TextBounds.cut(message.errorMessage(), TextBounds.MAX_ERROR_MESSAGE_CHARS));
        LimitScope scope = matches(USAGE_LIMIT, type) || matches(USAGE_LIMIT, text)
                ? (matches(MODEL_SCOPED, text) ? LimitScope.MODEL : LimitScope.ACCOUNT) : null;
        ErrorClass errorClass = errorClass(message, contextWindow, type, text, scope);
        if (errorClass == ErrorClass.REFUSAL) {
            return new Classification(ErrorClass.REFUSAL, scope, TransientKind.OTHER, Refusals.category(
                    TextBounds.cut(message.errorMessage(), TextBounds.MAX_ERROR_MESSAGE_CHARS)).orElse(null));
        }
        return new Classification(errorClass, scope, errorClass == ErrorClass.TRANSIENT
                ? TransientKind.of(message.errorStatus(), type, text) : TransientKind.OTHER);
    }

    private static String lower(String text) {
        return text == null ? null : text.toLowerCase(Locale.ROOT);
    }

    private static ErrorClass errorClass(AgentMessage.Assistant message, long contextWindow, String type,
            String text, LimitScope scope) {
        if (ErrorTypes.REFUSAL.equals(type)) {
            return ErrorClass.REFUSAL;
        }
        ErrorClass exhausted = exhausted(type, text, hintedRateLimit(message, type, text));
        if (exhausted != null) {
            return exhausted;
        }
        if (OverflowDetector.isOverflow(message, contextWindow)) {
            return ErrorClass.OVERFLOW;
        }
        if (text == null || text.isBlank()) {
            return ErrorClass.HARD;
        }
        Integer status = message.errorStatus();
        boolean retryable;
        if (message.shouldRetry() != null) {
            retryable = message.shouldRetry();
        } else if (type != null && FINAL_TYPES.contains(type)) {
            retryable = false;
        } else if (status != null) {
            retryable = RETRYABLE_STATUS.contains(status) || (type != null && RETRYABLE_TYPES.contains(type));
        } else if (type != null && RETRYABLE_TYPES.contains(type)) {
            retryable = true;
        } else {
            retryable = !FINAL_STATUS_PREFIX.matcher(text.trim()).find() && TRANSIENT_TEXT.in(text);
        }
        return retryable ? retryableClass(status, type, text, scope) : finalClass(status, type, text);
    }

    /**
     * A 429 (or a rate-limit type without a status, in-band) that carries a server hint shorter
     * than {@link #SHORT_HINT_MS}: the server names a window to wait, so the structure says
     * "rate limited" whatever the message's words (issue 25 item 7: Gemini's per-minute
     * "Quota exceeded for quota metric …" with a RetryInfo of seconds, a gateway's
     * "quota exceeded" 429 with {@code Retry-After}).
     */
    private static boolean hintedRateLimit(AgentMessage.Assistant message, String type, String text) {
        Long hint = message.retryAfterMs();
        Integer status = message.errorStatus();
        boolean rateLimit = status != null ? status == 429 : type != null && RATE_LIMIT_TYPES.contains(type);
        // A quota named per minute or per second is a window, hinted or not: Vertex's
        // "Quota exceeded for …requests_per_minute_per_project…" 429 carries no RetryInfo.
        return rateLimit && ((hint != null && hint >= 0 && hint < SHORT_HINT_MS) || SHORT_WINDOW_QUOTA.in(text));
    }

    private static ErrorClass exhausted(String type, String text, boolean hintedRateLimit) {
        if (RESOURCE_EXHAUSTED.equals(type) && DAILY_QUOTA.in(text)) {
            return ErrorClass.QUOTA;
        }
        if (matches(QUOTA, type)) {
            return ErrorClass.QUOTA;
        }
        if (matches(BILLING, type)) {
            return ErrorClass.BILLING;
        }
        if (hintedRateLimit && !matches(EXHAUSTION_CODES, text)) {
            return null;
        }
        if (matches(QUOTA, text)) {
            return ErrorClass.QUOTA;
        }
        return matches(BILLING, text) ? ErrorClass.BILLING : null;
    }

    private static ErrorClass retryableClass(Integer status, String type, String text, LimitScope scope) {
        if (scope != null) {
            return ErrorClass.USAGE_LIMIT;
        }
        boolean rateLimited = (status != null && status == 429) || (type != null && RATE_LIMIT_TYPES.contains(type))
                || RATE_LIMIT_TEXT.in(text);
        return rateLimited ? ErrorClass.RATE_LIMITED : ErrorClass.TRANSIENT;
    }

    private static ErrorClass finalClass(Integer status, String type, String text) {
        String leading = leadingStatus(text.trim());
        if ((status != null && status == 401) || (type != null && CREDENTIAL_TYPES.contains(type))
                || (status == null && "401".equals(leading))) {
            return ErrorClass.CREDENTIAL_REJECTED;
        }
        if ((status != null && status == 403) || (type != null && ACCESS_TYPES.contains(type))
                || (status == null && "403".equals(leading))) {
            return ErrorClass.ACCESS_DENIED;
        }
        if (REFUSAL_TEXT.in(text)) {
            return ErrorClass.REFUSAL;
        }
        if (status == null || status == 400) {
            if (CREDENTIAL_TEXT.in(text)) {
                return ErrorClass.CREDENTIAL_REJECTED;
            }
            if (ACCESS_TEXT.in(text)) {
                return ErrorClass.ACCESS_DENIED;
            }
        }
        return ErrorClass.HARD;
    }

    /** The "&lt;status&gt;" at the start of a "&lt;status&gt; &lt;body&gt;" message, or null. */
    private static String leadingStatus(String text) {
        var matcher = FINAL_STATUS_PREFIX.matcher(text);
        return matcher.find() ? matcher.group(1) : null;
    }

    private static boolean matches(Phrases phrases, String text) {
        return phrases.in(text);
    }
}
