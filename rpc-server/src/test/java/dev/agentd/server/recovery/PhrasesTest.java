package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every alternative of every anchored pattern still matches through its anchors. */
class PhrasesTest {

    /** One lower-case sample per alternative, in the patterns' order. */
    private static final Map<Phrases, List<String>> SAMPLES = Map.of(
            ErrorClassifier.QUOTA, List.of("enforced_spend_limit_reached", "spend_limit_exceeded", "quota exceeded",
                    "out of budget"),
            ErrorClassifier.BILLING, List.of("insufficient_quota", "credit balance too low", "billing", "you exceeded your "
                    + "current quota", "purchase credits", "credits required"),
            ErrorClassifier.TRANSIENT_TEXT, List.of("overloaded", "rate limit", "usage-limit", "too many requests",
                    "error 503 now", "service unavailable", "server_error", "internal error", "connection reset",
                    "fetch failed", "other side closed", "socket hang up", "terminated", "stream idle timeout",
                    "stream start timeout", "upstream connect error", "reset before headers", "retry delay"),
            ErrorClassifier.RATE_LIMIT_TEXT, List.of("rate_limit", "too many requests", "resource exhausted", "got 429"),
            ErrorClassifier.USAGE_LIMIT, List.of("usage limit", "usage_limit_reached", "limit_reached"),
            ErrorClassifier.MODEL_SCOPED, List.of("model", "premium", "opus", "sonnet", "haiku", "fable", "mythos"),
            ErrorClassifier.CREDENTIAL_TEXT, List.of("unauthorized", "authentication failed", "invalid x-api-key",
                    "invalid api key", "incorrect api key provided", "token has been revoked", "invalid_grant",
                    "api key not valid. please pass a valid api key.", "reason: api_key_invalid"),
            ErrorClassifier.ACCESS_TEXT, List.of("forbidden", "access denied", "not entitled", "insufficient permissions",
                    "model is not available on your plan"),
            ErrorClassifier.REFUSAL_TEXT, List.of("triggered restrictions on", "blocked under anthropic's usage policy"),
            OverflowDetector.PHRASES, List.of("prompt is too long", "input is too long for requested model",
                    "exceeds the context window", "input token count of 9 exceeds the maximum",
                    "maximum prompt length is 4", "please reduce the length of the messages",
                    "maximum context length is 8192 tokens", "exceeds the limit of 5", "exceeds the available context size",
                    "greater than the context length", "context window exceeds limit", "exceeded model token limit",
                    "too large for model with 8192 maximum context length", "model_context_window_exceeded",
                    "context length exceeded", "too many tokens", "token limit exceeded", "request_too_large"));

    @Test
    void everyAlternativeIsReachedThroughAnAnchor() {
        SAMPLES.forEach((phrases, samples) -> {
            int alternatives = phrases.pattern().pattern().split("\\|(?![^(]*\\))").length;
            assertTrue(samples.size() >= alternatives - 4, "a sample per alternative of " + phrases.pattern());
            for (String sample : samples) {
                assertTrue(phrases.pattern().matcher(sample).find(), "the sample matches: " + sample);
                assertTrue(phrases.in(sample), "reached through an anchor: " + sample);
                assertTrue(phrases.in("some text before " + sample + " and after"), sample);
            }
        });
    }

    @Test
    void exhaustionCodesAreReachedThroughTheirAnchors() {
        for (String sample : List.of("spend_limit_exceeded", "insufficient_quota", "billing_hard_limit_reached")) {
            assertTrue(ErrorClassifier.EXHAUSTION_CODES.in("code: " + sample + "."), sample);
        }
        assertFalse(ErrorClassifier.EXHAUSTION_CODES.in("check your plan and billing details"));
    }

    @Test
    void textWithoutAnAnchorIsNoMatchAndNullIsNone() {
        assertFalse(ErrorClassifier.TRANSIENT_TEXT.in("nothing to see here"));
        assertFalse(ErrorClassifier.TRANSIENT_TEXT.in(null));
    }
}
