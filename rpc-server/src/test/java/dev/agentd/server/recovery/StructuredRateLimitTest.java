package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.http.ExchangeResult;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.Redactor;
import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 25 item 7: structured facts beat text. Real error bodies of each API go through
 * {@link HttpErrors#fromResponse} (as a fixture for Gemini, whose provider is written elsewhere)
 * with their headers, and the resulting reply is classified: a hinted 429 is a rate limit whatever
 * its words say about quotas; a quota without a short hint, or with a billing or spend code, is not.
 */
class StructuredRateLimitTest {
    private static final long NOW = 1_767_000_000_000L;

    private static final String ANTHROPIC_QUOTA_WORDS = "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\","
            + "\"message\":\"This request would exceed your organization's rate limit: quota exceeded for input "
            + "tokens per minute. Please reduce the prompt length or try again later.\"},"
            + "\"request_id\":\"req_011CSHoEeqs5C35K2UUqR7Fy\"}";
    private static final String ANTHROPIC_SPEND_LIMIT = "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\","
            + "\"message\":\"You have reached your specified workspace API usage limits. You will regain access on "
            + "2027-01-01 at 00:00 UTC.\",\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}}}";
    private static final String OPENAI_QUOTA_WORDS = "{\"error\":{\"message\":\"Rate limit reached for gpt-4o in "
            + "organization org-x on requests per min (RPM): quota exceeded, Limit 500, Used 500, Requested 1. "
            + "Please try again in 120ms.\",\"type\":\"requests\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}";
    private static final String OPENAI_INSUFFICIENT_QUOTA = "{\"error\":{\"message\":\"You exceeded your current "
            + "quota, please check your plan and billing details. For more information on this error, read the docs: "
            + "https://platform.openai.com/docs/guides/error-codes/api-errors.\",\"type\":\"insufficient_quota\","
            + "\"param\":null,\"code\":\"insufficient_quota\"}}";
    private static final String GEMINI_PER_MINUTE = """
            {
              "error": {
                "code": 429,
                "message": "Quota exceeded for quota metric 'Generate Content API requests per minute' and limit \
            'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com' \
            for consumer 'project_number:123456789'. You exceeded your current quota, please check your plan and \
            billing details.",
                "status": "RESOURCE_EXHAUSTED",
                "details": [
                  {
                    "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                    "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_requests", \
            "quotaId": "GenerateRequestsPerMinutePerProjectPerModel"}]
                  },
                  {"@type": "type.googleapis.com/google.rpc.Help", "links": [{"description": "Learn more", \
            "url": "https://ai.google.dev/gemini-api/docs/rate-limits"}]},
                  {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}
                ]
              }
            }""";
    /** Vertex AI's 429 for a per-minute quota: Google's format, no RetryInfo. */
    private static final String VERTEX_PER_MINUTE = """
            {"error": {"code": 429, "message": "Quota exceeded for \
            aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model with base \
            model: gemini-2.5-pro. Please submit a quota increase request. \
            https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.", "status": "RESOURCE_EXHAUSTED"}}""";
    private static final String GEMINI_MONTHLY = """
            {
              "error": {
                "code": 429,
                "message": "Quota exceeded for quota metric 'Generate Content API requests per month' of service \
            'generativelanguage.googleapis.com' for consumer 'project_number:123456789'.",
                "status": "RESOURCE_EXHAUSTED",
                "details": [
                  {
                    "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                    "violations": [{"quotaId": "GenerateRequestsPerMonthPerProject"}]
                  }
                ]
              }
            }""";
    private static final String GEMINI_BILLING = """
            {"error": {"code": 403, "message": "This API method requires billing to be enabled. Please enable \
            billing on project #123456789.", "status": "PERMISSION_DENIED", "details": [{"@type": \
            "type.googleapis.com/google.rpc.ErrorInfo", "reason": "BILLING_DISABLED"}]}}""";

    static Stream<Arguments> replies() {
        return Stream.of(
                row("anthropic 429 rate_limit_error + retry-after, 'quota exceeded' words",
                        http(429, ANTHROPIC_QUOTA_WORDS, Map.of("retry-after", "20"), HttpErrors::errorDotType),
                        ErrorClass.RATE_LIMITED, 20_000L),
                row("anthropic in-band rate_limit_error with a body hint, 'quota' words",
                        inBand("{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Token "
                                + "quota exceeded, retry after 15 seconds\"}}", HttpErrors::errorDotType),
                        ErrorClass.RATE_LIMITED, 15_000L),
                row("MockServer's anthropic quota window: rate_limit_error 'LLM request quota exceeded' + retry-after",
                        http(429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":"
                                + "\"LLM request quota exceeded\"}}", Map.of("retry-after", "4",
                                "anthropic-ratelimit-requests-remaining", "0"), HttpErrors::errorDotType),
                        ErrorClass.RATE_LIMITED, 4_000L),
                row("MockServer's openai quota window: rate_limit_exceeded 'LLM request quota exceeded' + retry-after",
                        http(429, "{\"error\":{\"message\":\"LLM request quota exceeded\",\"type\":"
                                + "\"rate_limit_exceeded\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}",
                                Map.of("retry-after", "4", "x-ratelimit-reset-requests", "4s"),
                                HttpErrors::errorCodeOrType), ErrorClass.RATE_LIMITED, 4_000L),
                row("anthropic 429 'quota' words per minute, no hint: a window, so a rate limit",
                        http(429, ANTHROPIC_QUOTA_WORDS, Map.of(), HttpErrors::errorDotType),
                        ErrorClass.RATE_LIMITED, null),
                row("anthropic 429 'quota exceeded' without a window or a hint: quota",
                        http(429, ANTHROPIC_QUOTA_WORDS.replace(" for input tokens per minute", ""), Map.of(),
                                HttpErrors::errorDotType), ErrorClass.QUOTA, null),
                row("vertex per-minute quota 429 without RetryInfo: a rate limit",
                        http(429, VERTEX_PER_MINUTE, Map.of(), StructuredRateLimitTest::geminiStatus),
                        ErrorClass.RATE_LIMITED, null),
                row("anthropic spend limit code beats a hint",
                        http(429, ANTHROPIC_SPEND_LIMIT, Map.of("retry-after", "30"), HttpErrors::errorDotType),
                        ErrorClass.QUOTA, 30_000L),
                row("openai 429 rate_limit_exceeded + retry-after, 'quota exceeded' words",
                        http(429, OPENAI_QUOTA_WORDS, Map.of("retry-after", "1", "x-ratelimit-reset-requests", "120ms"),
                                HttpErrors::errorCodeOrType), ErrorClass.RATE_LIMITED, 1_000L),
                row("openai insufficient_quota with retry-after: billing (the code)",
                        http(429, OPENAI_INSUFFICIENT_QUOTA, Map.of("retry-after", "20"), HttpErrors::errorCodeOrType),
                        ErrorClass.BILLING, 20_000L),
                row("gemini per-minute RESOURCE_EXHAUSTED with RetryInfo 37s",
                        http(429, GEMINI_PER_MINUTE, Map.of(), StructuredRateLimitTest::geminiStatus),
                        ErrorClass.RATE_LIMITED, 37_000L),
                row("gemini per-minute in-band (no status) with RetryInfo",
                        inBand(GEMINI_PER_MINUTE, StructuredRateLimitTest::geminiStatus),
                        ErrorClass.RATE_LIMITED, 37_000L),
                row("gemini monthly quota, no RetryInfo: quota",
                        http(429, GEMINI_MONTHLY, Map.of(), StructuredRateLimitTest::geminiStatus), ErrorClass.QUOTA,
                        null),
                row("gemini quota with a day-long hint: quota",
                        http(429, GEMINI_MONTHLY, Map.of("retry-after", "86400"), StructuredRateLimitTest::geminiStatus),
                        ErrorClass.QUOTA, 86_400_000L),
                row("gemini billing disabled: billing",
                        http(403, GEMINI_BILLING, Map.of(), StructuredRateLimitTest::geminiStatus),
                        ErrorClass.BILLING, null),
                row("a hint on a non-429 status does not lift a quota",
                        http(400, OPENAI_INSUFFICIENT_QUOTA.replace("insufficient_quota", "invalid_request_error")
                                .replace("You exceeded your current quota", "Quota exceeded"),
                                Map.of("retry-after", "5"), HttpErrors::errorCodeOrType), ErrorClass.QUOTA, 5_000L));
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource("replies")
    void structuredFactsDecide(String name, ProviderError error, ErrorClass expected, Long hint) {
        assertEquals(hint, error.retryAfterMs(), "the hint as the provider's error shaping reads it");
        AgentMessage.Assistant reply = new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO,
                StopReason.ERROR, error.message(), 0, error.status(), error.type(), error.retryAfterMs(),
                error.shouldRetry());
        assertEquals(expected, ErrorClassifier.classify(reply, 200_000).errorClass(), name);
    }

    private static Arguments row(String name, ProviderError error, ErrorClass expected, Long hint) {
        return Arguments.of(name, error, expected, hint);
    }

    private static ProviderError http(int status, String body, Map<String, String> headers,
            java.util.function.Function<com.fasterxml.jackson.databind.JsonNode, String> type) {
        HttpHeaders httpHeaders = HttpHeaders.of(headers.entrySet().stream().collect(
                java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue()))), (a, b) -> true);
        return HttpErrors.fromResponse(new ExchangeResult.HttpFailure(status, httpHeaders, body),
                Redactor.of("sk-test", List.of()), type, NOW);
    }

    private static ProviderError inBand(String data,
            java.util.function.Function<com.fasterxml.jackson.databind.JsonNode, String> type) {
        return HttpErrors.inBand(data, Redactor.of("sk-test", List.of()), type);
    }

    /** Gemini's error type as its provider reads it: {@code error.status}, lower-cased by the classifier. */
    private static String geminiStatus(com.fasterxml.jackson.databind.JsonNode root) {
        String status = root.path("error").path("status").asText(null);
        return status == null || status.isBlank() ? null : status;
    }
}
