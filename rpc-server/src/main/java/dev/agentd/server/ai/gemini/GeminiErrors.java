package dev.agentd.server.ai.gemini;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads the error type of a Gemini error body, {@code {"error":{"code":429,"message":…,
 * "status":"RESOURCE_EXHAUSTED","details":[…]}}}: its google.rpc status name, which
 * {@code recovery.ErrorClassifier} knows in lower case. The {@code RetryInfo.retryDelay} of the
 * details ({@code "12s"}) is found by {@code RetryHints} in the body text, and a daily
 * {@code QuotaFailure} by the classifier, so neither is parsed here.
 */
public final class GeminiErrors {
    private GeminiErrors() {}

    /** {@code error.status} (null when absent: the numeric {@code code} repeats the HTTP status). */
    public static String status(JsonNode root) {
        JsonNode status = root.path("error").path("status");
        return status.isTextual() && !status.textValue().isBlank() ? status.textValue() : null;
    }
}
