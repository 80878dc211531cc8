package dev.agentd.server.recovery;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.recovery.LimitScope;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * FALLBACK.md §3: every error class, from structured facts (status, type or code,
 * {@code x-should-retry}) as each API really sends them, and from text alone (faux scripts,
 * gateways that send no structure). The errorMessage is what {@code HttpErrors} builds:
 * {@code "<status> <body>"}, or the event's JSON for an in-band error.
 */
class ErrorClassificationTableTest {
    private static final long WINDOW = 200_000;
    private static final LimitScope NO_LIMIT = null;

    static AgentMessage.Assistant reply(String text, Integer status, String type, Boolean shouldRetry) {
        return new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO, StopReason.ERROR, text, 0, status,
                type, null, shouldRetry);
    }

    /** An Anthropic HTTP error: errorType is {@code error.type}. */
    static AgentMessage.Assistant anthropic(int status, String type, String message) {
        String body = "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message
                + "\"},\"request_id\":\"req_011CSHoEeqs5C35K2UUqR7Fy\"}";
        return reply(status + " " + body, status, type, null);
    }

    /** An Anthropic in-band SSE error on a 200 stream: no status. */
    static AgentMessage.Assistant anthropicInBand(String type, String message) {
        return reply("{\"type\":\"error\",\"error\":{\"details\":null,\"type\":\"" + type + "\",\"message\":\""
                + message + "\"},\"request_id\":\"req_011CSHoEeqs5C35K2UUqR7Fy\"}", null, type, null);
    }

    /** An OpenAI HTTP error: errorType is {@code error.code}, else {@code error.type}. */
    static AgentMessage.Assistant openai(int status, String message, String type, String code) {
        String body = "{\"error\":{\"message\":\"" + message + "\",\"type\":\"" + type + "\",\"param\":null,\"code\":"
                + (code == null ? "null" : "\"" + code + "\"") + "}}";
        return reply(status + " " + body, status, code != null ? code : type, null);
    }

    static Stream<Arguments> structured() {
        return Stream.of(
                row("anthropic 529 overloaded", anthropic(529, "overloaded_error", "Overloaded"),
                        ErrorClass.TRANSIENT, NO_LIMIT),
                row("anthropic 500 api_error", anthropic(500, "api_error", "Internal server error"),
                        ErrorClass.TRANSIENT, NO_LIMIT),
                row("anthropic in-band overloaded", anthropicInBand("overloaded_error", "Overloaded"),
                        ErrorClass.TRANSIENT, NO_LIMIT),
                row("anthropic 429", anthropic(429, "rate_limit_error",
                        "Number of request tokens has exceeded your per-minute rate limit"),
                        ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("anthropic in-band rate limit", anthropicInBand("rate_limit_error", "Rate limited"),
                        ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("anthropic spend limit as a 429", reply("429 {\"type\":\"error\",\"error\":{\"type\":"
                        + "\"rate_limit_error\",\"message\":\"You have reached your specified workspace API usage "
                        + "limits.\",\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}}}", 429,
                        "rate_limit_error", null), ErrorClass.QUOTA, LimitScope.ACCOUNT),
                row("anthropic credit balance", anthropic(400, "invalid_request_error", "Your credit balance is too "
                        + "low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase "
                        + "credits."), ErrorClass.BILLING, NO_LIMIT),
                row("anthropic 401", anthropic(401, "authentication_error", "invalid x-api-key"),
                        ErrorClass.CREDENTIAL_REJECTED, NO_LIMIT),
                row("anthropic 403", anthropic(403, "permission_error",
                        "Your API key does not have permission to use the specified resource."),
                        ErrorClass.ACCESS_DENIED, NO_LIMIT),
                row("anthropic usage-policy block", anthropic(400, "invalid_request_error", "This request "
                        + "triggered restrictions on violative cyber content and was blocked under Anthropic's "
                        + "Usage Policy."), ErrorClass.REFUSAL, NO_LIMIT),
                row("anthropic stop_reason refusal", reply("The model refused to answer (stop_reason: refusal)",
                        null, ErrorTypes.REFUSAL, null), ErrorClass.REFUSAL, NO_LIMIT),
                row("anthropic prompt too long", anthropic(400, "invalid_request_error",
                        "prompt is too long: 213462 tokens > 200000 maximum"), ErrorClass.OVERFLOW, NO_LIMIT),
                row("anthropic 413", anthropic(413, "request_too_large", "Request exceeds the maximum size"),
                        ErrorClass.OVERFLOW, NO_LIMIT),
                row("anthropic 404", anthropic(404, "not_found_error", "model: claude-nope"),
                        ErrorClass.HARD, NO_LIMIT),
                row("openai 429 rate limit", openai(429, "Rate limit reached for gpt-4o in organization org-x on "
                        + "tokens per min (TPM): Limit 30000, Used 30000, Requested 500. Please try again in 1s.",
                        "tokens", "rate_limit_exceeded"), ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("openai insufficient_quota as a 429", openai(429, "You exceeded your current quota, please "
                        + "check your plan and billing details.", "insufficient_quota", "insufficient_quota"),
                        ErrorClass.BILLING, NO_LIMIT),
                row("openai usage_limit_reached", reply("429 {\"error\":{\"type\":\"usage_limit_reached\","
                        + "\"message\":\"The usage limit has been reached\",\"plan_type\":\"plus\","
                        + "\"resets_in_seconds\":3600}}", 429, "usage_limit_reached", null),
                        ErrorClass.USAGE_LIMIT, LimitScope.ACCOUNT),
                row("openai model-scoped usage limit", openai(429, "You have reached the usage limit for model "
                        + "gpt-5", "usage_limit", null), ErrorClass.USAGE_LIMIT, LimitScope.MODEL),
                row("openai 401", openai(401, "Incorrect API key provided: sk-proj-****abcd.",
                        "invalid_request_error", "invalid_api_key"), ErrorClass.CREDENTIAL_REJECTED, NO_LIMIT),
                row("openai 403", openai(403, "Project `proj_x` does not have access to model `gpt-5`",
                        "invalid_request_error", "model_not_found"), ErrorClass.ACCESS_DENIED, NO_LIMIT),
                row("openai context length", openai(400, "This model's maximum context length is 128000 tokens. "
                        + "However, your messages resulted in 130000 tokens.", "invalid_request_error",
                        "context_length_exceeded"), ErrorClass.OVERFLOW, NO_LIMIT),
                row("openai overflow by code alone", reply("400 bad request", 400, "context_length_exceeded", null),
                        ErrorClass.OVERFLOW, NO_LIMIT),
                row("openai 500", openai(500, "The server had an error while processing your request.",
                        "server_error", null), ErrorClass.TRANSIENT, NO_LIMIT),
                row("openai 400", openai(400, "Invalid value for 'messages[0].role'", "invalid_request_error", null),
                        ErrorClass.HARD, NO_LIMIT),
                row("gateway in-band numeric code", reply("{\"error\":{\"message\":\"Provider returned error\","
                        + "\"type\":\"server_error\",\"code\":502}}", null, "502", null),
                        ErrorClass.TRANSIENT, NO_LIMIT),
                row("openai delta.refusal", reply("I can't help with that.", null, ErrorTypes.REFUSAL, null),
                        ErrorClass.REFUSAL, NO_LIMIT),
                row("x-should-retry true beats a final status", reply("418 teapot", 418, null, true),
                        ErrorClass.TRANSIENT, NO_LIMIT),
                row("x-should-retry false beats a retryable status", reply("529 overloaded", 529, null, false),
                        ErrorClass.HARD, NO_LIMIT),
                row("a quota code", reply("429 slow down", 429, "out of budget", null), ErrorClass.QUOTA, NO_LIMIT),
                // Bedrock: the type from x-amzn-ErrorType (HTTP) or the exception frame (in-band)
                row("bedrock 429 throttling", bedrock(429, "ThrottlingException",
                        "Too many requests, please wait before trying again."), ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("bedrock in-band throttling", reply("429 throttlingException: {\"message\":\"Too many tokens, "
                        + "please wait before trying again.\"}", 429, "throttlingException", null),
                        ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("bedrock 503 unavailable", bedrock(503, "ServiceUnavailableException",
                        "Bedrock is unable to process your request."), ErrorClass.TRANSIENT, NO_LIMIT),
                row("bedrock model not ready", bedrock(429, "ModelNotReadyException",
                        "Model is not ready for inference. Wait and try your request again."),
                        ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("bedrock in-band model not ready", reply("429 modelNotReadyException: {\"message\":\"Model is "
                        + "not ready\"}", 429, "modelNotReadyException", null), ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("bedrock stream error", reply("424 modelStreamErrorException: {\"message\":\"The model "
                        + "stream failed\"}", 424, "modelStreamErrorException", null), ErrorClass.TRANSIENT,
                        NO_LIMIT),
                row("bedrock daily tokens", bedrock(400, "ServiceQuotaExceededException",
                        "Too many tokens per day, please wait before trying again."), ErrorClass.QUOTA, NO_LIMIT),
                row("bedrock access denied", bedrock(403, "AccessDeniedException",
                        "You don't have access to the model with the specified model ID."),
                        ErrorClass.ACCESS_DENIED, NO_LIMIT),
                row("bedrock bad keys", bedrock(403, "UnrecognizedClientException",
                        "The security token included in the request is invalid."),
                        ErrorClass.CREDENTIAL_REJECTED, NO_LIMIT),
                row("bedrock expired token", bedrock(403, "ExpiredTokenException",
                        "The security token included in the request is expired"),
                        ErrorClass.CREDENTIAL_REJECTED, NO_LIMIT),
                row("bedrock validation", bedrock(400, "ValidationException",
                        "The model returned the following errors: messages.0: Input should be a valid list"),
                        ErrorClass.HARD, NO_LIMIT));
    }

    /** A Bedrock HTTP error: {@code {"message":…}}, the type from {@code x-amzn-ErrorType} (HttpErrors). */
    static AgentMessage.Assistant bedrock(int status, String type, String message) {
        return reply(status + " {\"message\":\"" + message + "\"}", status, type, null);
    }

    static Stream<Arguments> textOnly() {
        return Stream.of(
                row("overloaded", ErrorClass.TRANSIENT, NO_LIMIT),
                row("Connection error: connection reset", ErrorClass.TRANSIENT, NO_LIMIT),
                row("failed (request id req_011CA429xyzQ): upstream connect error", ErrorClass.TRANSIENT, NO_LIMIT),
                // pi 1.x's transient patterns
                row("read ECONNRESET", ErrorClass.TRANSIENT, NO_LIMIT),
                row("write EPIPE", ErrorClass.TRANSIENT, NO_LIMIT),
                row("connect ETIMEDOUT 10.0.0.1:443", ErrorClass.TRANSIENT, NO_LIMIT),
                row("Connection closed.", ErrorClass.TRANSIENT, NO_LIMIT),
                row("The socket connection was closed unexpectedly", ErrorClass.TRANSIENT, NO_LIMIT),
                row("getaddrinfo ENOTFOUND api.anthropic.com", ErrorClass.TRANSIENT, NO_LIMIT),
                row("getaddrinfo EAI_AGAIN api.openai.com", ErrorClass.TRANSIENT, NO_LIMIT),
                row("The stream was cut short after the reply had begun", ErrorClass.TRANSIENT, NO_LIMIT),
                row("520 <html>web server returned an unknown error</html>", ErrorClass.TRANSIENT, NO_LIMIT),
                row("Rate limit exceeded", ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("429 Too Many Requests", ErrorClass.RATE_LIMITED, NO_LIMIT),
                row("You have hit your usage limit", ErrorClass.USAGE_LIMIT, LimitScope.ACCOUNT),
                row("usage limit reached for the opus model", ErrorClass.USAGE_LIMIT, LimitScope.MODEL),
                row("Your credit balance is too low", ErrorClass.BILLING, NO_LIMIT),
                row("purchase credits to continue", ErrorClass.BILLING, NO_LIMIT),
                row("Quota exceeded for quota metric 'requests'", ErrorClass.QUOTA, NO_LIMIT),
                row("project out of budget", ErrorClass.QUOTA, NO_LIMIT),
                row("429 project_spend_limit_exceeded", ErrorClass.QUOTA, NO_LIMIT),
                row("401 Unauthorized", ErrorClass.CREDENTIAL_REJECTED, NO_LIMIT),
                row("invalid x-api-key", ErrorClass.CREDENTIAL_REJECTED, NO_LIMIT),
                row("OAuth token has been revoked", ErrorClass.CREDENTIAL_REJECTED, NO_LIMIT),
                row("invalid_grant", ErrorClass.CREDENTIAL_REJECTED, NO_LIMIT),
                row("403 Forbidden", ErrorClass.ACCESS_DENIED, NO_LIMIT),
                row("this model is not available on your plan", ErrorClass.ACCESS_DENIED, NO_LIMIT),
                row("account not entitled to this model", ErrorClass.ACCESS_DENIED, NO_LIMIT),
                row("The request was blocked under Anthropic's Usage Policy", ErrorClass.REFUSAL, NO_LIMIT),
                row("prompt is too long", ErrorClass.OVERFLOW, NO_LIMIT),
                row("input token count 300000 exceeds the maximum", ErrorClass.OVERFLOW, NO_LIMIT),
                row("Something odd happened", ErrorClass.HARD, NO_LIMIT),
                row("", ErrorClass.HARD, NO_LIMIT));
    }

    private static Arguments row(String name, AgentMessage.Assistant message, ErrorClass expected, LimitScope scope) {
        return Arguments.of(name, message, expected, scope);
    }

    private static Arguments row(String text, ErrorClass expected, LimitScope scope) {
        return Arguments.of(text, reply(text, null, null, null), expected, scope);
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource({"structured", "textOnly"})
    void classifies(String name, AgentMessage.Assistant message, ErrorClass expected, LimitScope scope) {
        Classification classification = ErrorClassifier.classify(message, WINDOW);
        assertEquals(expected, classification.errorClass(), name);
        assertEquals(scope, classification.scope(), name);
        // the yes/no views agree with the class
        assertEquals(expected.retriedOnSameModel(), isRetryable(message, WINDOW), name);
        assertEquals(expected == ErrorClass.BILLING || expected == ErrorClass.QUOTA,
                isExhausted(message), name);
        assertEquals(scope != null, isUsageLimit(message), name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notErrors")
    void repliesThatAreNotErrors(String name, AgentMessage.Assistant message, ErrorClass expected) {
        assertEquals(Classification.of(expected), ErrorClassifier.classify(message, WINDOW), name);
        assertEquals(false, isRetryable(message, WINDOW));
    }

    static Stream<Arguments> notErrors() {
        return Stream.of(
                Arguments.of("a normal reply", new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO,
                        StopReason.STOP, null, 0), ErrorClass.NONE),
                Arguments.of("an aborted reply", new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO,
                        StopReason.ABORTED, "Request was aborted (overloaded)", 0), ErrorClass.ABORTED),
                Arguments.of("a silent overflow", new AgentMessage.Assistant(List.of(), "api", "p", "m",
                        new Usage(190_000, 10, 20_000, 0, 210_010, null), StopReason.STOP, null, 0),
                        ErrorClass.OVERFLOW));
    }

    /** A transient failure a same-model retry may cure (SPEC §5.2). */
    private static boolean isRetryable(AgentMessage.Assistant message, long contextWindow) {
        return ErrorClassifier.classify(message, contextWindow).errorClass().retriedOnSameModel();
    }
    private static boolean isExhausted(AgentMessage.Assistant message) {
        ErrorClass errorClass = ErrorClassifier.classify(message, 0).errorClass();
        return errorClass == ErrorClass.BILLING || errorClass == ErrorClass.QUOTA;
    }
    private static boolean isUsageLimit(AgentMessage.Assistant message) {
        return ErrorClassifier.classify(message, 0).scope() != null;
    }
}
