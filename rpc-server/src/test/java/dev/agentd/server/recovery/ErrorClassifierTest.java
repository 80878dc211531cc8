package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.ai.ErrorTypes;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SPEC §5.2: which failures are retried on the same model. */
class ErrorClassifierTest {
    private static final long WINDOW = 200_000;

    static AgentMessage.Assistant error(String text) {
        return error(text, null, null, null);
    }

    static AgentMessage.Assistant error(String text, Integer status, String type, Boolean shouldRetry) {
        return new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO, StopReason.ERROR, text, 0, status,
                type, null, shouldRetry);
    }

    @ParameterizedTest(name = "retryable text: {0}")
    @ValueSource(strings = {
        "Overloaded",
        "rate limit reached for requests", "Rate-limit exceeded", "ratelimit",
        "You have hit your usage limit", "usage_limit_reached",
        "Too Many Requests",
        "429 Too many", "status 500", "502 Bad Gateway", "503", "error 504 from upstream",
        "Service Unavailable", "service_unavailable", "server error", "Server_Error", "Internal error", "internal_error",
        "Connection error.", "connection refused", "Connection reset by peer",
        "fetch failed", "other side closed", "socket hang up", "terminated",
        "stream idle timeout after 120000 ms", "stream start timeout after 120000 ms",
        "Server requested 30s retry delay (max: 10s)", "retry-delay exceeded",
        "upstream connect error or disconnect/reset before headers"
    })
    void transientTextsAreRetryable(String text) {
        assertTrue(isRetryable(error(text), WINDOW), text);
    }

    @ParameterizedTest(name = "not retryable text: {0}")
    @ValueSource(strings = {
        // whole numbers only: 5000 and a request id containing 429 must not match
        "processed 5000 tokens", "failed (request id req_011CA429xyzQ)", "req-id abc1429def", "code 5029",
        // authentication, permission, plain invalid request
        "401 {\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}",
        "403 {\"error\":{\"type\":\"permission_error\"}}",
        "400 {\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages: field required\"}}",
        // overflow goes to compaction
        "400 prompt is too long: 213462 tokens > 200000 maximum",
        "This model's maximum context length is 128000 tokens",
        "context_length_exceeded", "Please reduce the length of the messages",
        "input token count 300000 exceeds the maximum", "too many tokens", "token limit exceeded",
        "413 request_too_large", "400 status code (no body)",
        // billing, quota, spend exhaustion, even as 429
        "429 {\"error\":{\"code\":\"insufficient_quota\",\"message\":\"You exceeded your current quota\"}}",
        "429 {\"error\":{\"type\":\"rate_limit_error\",\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}}}",
        "429 project_spend_limit_exceeded", "Your credit balance is too low", "rate limit: check your billing",
        // nothing matches
        "Something odd happened", ""
    })
    void otherTextsAreNotRetryable(String text) {
        assertFalse(isRetryable(error(text), WINDOW), text);
    }

    @Test
    void structuredStatusAndTypeDecideBeforeText() {
        assertTrue(isRetryable(error("Overloaded", 529, "overloaded_error", null), WINDOW));
        assertTrue(isRetryable(error("weird body", 503, null, null), WINDOW));
        assertTrue(isRetryable(error("weird body", 408, null, null), WINDOW));
        assertTrue(isRetryable(error("weird body", 425, null, null), WINDOW));
        assertTrue(isRetryable(error("weird body", 522, null, null), WINDOW));
        // an in-band SSE error on a 200 stream is retried by its type
        assertTrue(isRetryable(error("{\"type\":\"error\"}", 200, "overloaded_error", null), WINDOW));
        assertTrue(isRetryable(error("x", null, "rate_limit_exceeded", null), WINDOW));
        assertTrue(isRetryable(error("x", null, "server_error", null), WINDOW));
        assertTrue(isRetryable(error("x", null, "api_error", null), WINDOW));
        assertTrue(isRetryable(error("Connection error: reset", null, ErrorTypes.CONNECTION, null),
                WINDOW));
        // the status says final even though the text mentions an overload
        assertFalse(isRetryable(error("overloaded", 401, null, null), WINDOW));
        assertFalse(isRetryable(error("server error", 400, null, null), WINDOW));
        assertFalse(isRetryable(error("overloaded", null, "authentication_error", null), WINDOW));
        assertFalse(isRetryable(error("rate limited", 429, "insufficient_quota", null), WINDOW));
    }

    @Test
    void xShouldRetryIsObeyed() {
        assertFalse(isRetryable(error("503 overloaded", 503, null, false), WINDOW));
        assertTrue(isRetryable(error("409 conflict?", 418, null, true), WINDOW));
    }

    @Test
    void abortedAndSuccessfulRepliesAreNeverRetried() {
        AgentMessage.Assistant aborted = new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO,
                StopReason.ABORTED, "Request was aborted (overloaded)", 0);
        assertFalse(isRetryable(aborted, WINDOW));
        AgentMessage.Assistant ok = new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO,
                StopReason.STOP, null, 0);
        assertFalse(isRetryable(ok, WINDOW));
    }

    @Test
    void usageLimitsAreRecognisedForRotation() {
        assertTrue(isUsageLimit(error("You have hit your ChatGPT usage limit")));
        assertTrue(isUsageLimit(error("x", 429, "usage_limit_reached", null)));
        assertFalse(isUsageLimit(error("529 overloaded")));
    }

    @Test
    void silentOverflowIsDetectedOnASuccessfulReply() {
        AgentMessage.Assistant tooBig = new AgentMessage.Assistant(List.of(), "api", "p", "m",
                new Usage(190_000, 10, 20_000, 0, 210_010, null), StopReason.STOP, null, 0);
        assertTrue(OverflowDetector.isOverflow(tooBig, WINDOW));
        assertFalse(OverflowDetector.isOverflow(tooBig, 0));
    }

    /** A transient failure a same-model retry may cure (SPEC §5.2). */
    private static boolean isRetryable(AgentMessage.Assistant message, long contextWindow) {
        return ErrorClassifier.classify(message, contextWindow).errorClass().retriedOnSameModel();
    }
    private static boolean isUsageLimit(AgentMessage.Assistant message) {
        return ErrorClassifier.classify(message, 0).scope() != null;
    }
}
