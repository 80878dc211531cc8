package dev.agentd.server.ai.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.RetryHints;
import dev.agentd.server.ai.TextBounds;
import java.net.http.HttpHeaders;
import java.util.Locale;
import java.util.function.Function;

/**
 * Builds the {@link ProviderError} of a failed exchange (SPEC §6.1): {@code "<status> <body>"}
 * with the body trimmed to 2000 chars, the provider's error type or code, the server's
 * {@code x-should-retry} verdict and its retry hint. Bodies are redacted before anything reads them,
 * then every piece is cut ({@link TextBounds}) before a pattern or parser sees it: the type to
 * {@link TextBounds#MAX_TYPE_CHARS}, the text searched for a hint to
 * {@link TextBounds#MAX_HINT_SOURCE_CHARS}, header values to {@link TextBounds#MAX_HEADER_CHARS}.
 */
public final class HttpErrors {
    public static final int MAX_BODY_CHARS = TextBounds.MAX_BODY_CHARS;

    private HttpErrors() {}

    /** An error status (or a JSON body where a stream was expected). */
    public static ProviderError fromResponse(ExchangeResult.HttpFailure failure, Redactor redactor,
            Function<JsonNode, String> errorType, long nowMs) {
        String body = redactor.apply(failure.body()).strip();
        String message = body.isEmpty() ? failure.status() + " status code (no body)"
                : failure.status() + " " + trim(body);
        HttpHeaders headers = failure.headers();
        Boolean shouldRetry = headers.firstValue("x-should-retry")
                .filter(value -> value.length() <= TextBounds.MAX_HEADER_CHARS)
                .map(value -> value.trim().toLowerCase(Locale.ROOT))
                .filter(value -> value.equals("true") || value.equals("false"))
                .map(Boolean::valueOf)
                .orElse(null);
        Long retryAfter = RetryHints.compute(headers.map(), TextBounds.cut(body, TextBounds.MAX_HINT_SOURCE_CHARS),
                nowMs);
        String type = typeOf(body, errorType);
        return new ProviderError(message, failure.status(), type != null ? type : awsErrorType(headers), retryAfter,
                shouldRetry);
    }

    /**
     * AWS services (Bedrock) name the error in a header rather than the body:
     * {@code x-amzn-ErrorType: ThrottlingException:http://internal.amazon.com/coral/…}; the name
     * is the part before the first {@code :}.
     */
    static String awsErrorType(HttpHeaders headers) {
        return headers.firstValue("x-amzn-errortype")
                .map(value -> TextBounds.cut(value, TextBounds.MAX_HEADER_CHARS))
                .map(value -> value.indexOf(':') < 0 ? value : value.substring(0, value.indexOf(':')))
                .map(String::strip)
                .filter(value -> !value.isEmpty())
                .map(value -> TextBounds.cut(value, TextBounds.MAX_TYPE_CHARS))
                .orElse(null);
    }

    /** An error that arrived inside a 200 stream: the event's JSON as received, no status. */
    public static ProviderError inBand(String data, Redactor redactor, Function<JsonNode, String> errorType) {
        String body = redactor.apply(data).strip();
        return new ProviderError(trim(body), null, typeOf(body, errorType),
                RetryHints.fromBody(TextBounds.cut(body, TextBounds.MAX_HINT_SOURCE_CHARS)), null);
    }

    public static ProviderError transport(String cause, Redactor redactor) {
        return new ProviderError("Connection error: " + redactor.apply(cause), null, ErrorTypes.CONNECTION, null, null);
    }

    public static ProviderError timeout(ExchangeResult.TimedOut timedOut) {
        return new ProviderError(timedOut.message(), null, timedOut.errorType(), null, null);
    }

    /** {@code error.type} (Anthropic, and OpenAI's fallback). */
    public static String errorDotType(JsonNode root) {
        return text(root.path("error").path("type"));
    }

    /** {@code error.code}, else {@code error.type} (OpenAI and compatible servers). */
    public static String errorCodeOrType(JsonNode root) {
        String code = text(root.path("error").path("code"));
        return code != null ? code : errorDotType(root);
    }

    private static String typeOf(String body, Function<JsonNode, String> errorType) {
        if (body.isEmpty() || (body.charAt(0) != '{')) {
            return null;
        }
        try {
            JsonNode root = Json.mapper().readTree(body);
            return root == null ? null : TextBounds.cut(errorType.apply(root), TextBounds.MAX_TYPE_CHARS);
        } catch (Exception e) {
            return null;
        }
    }

    private static String text(JsonNode node) {
        if (node.isTextual() && !node.textValue().isBlank()) {
            return node.textValue();
        }
        return node.isNumber() ? node.asText() : null;
    }

    /** Cuts to {@link #MAX_BODY_CHARS}, never between the halves of a surrogate pair. */
    static String trim(String text) {
        return TextBounds.cut(text, MAX_BODY_CHARS);
    }
}
