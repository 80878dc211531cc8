package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentd.protocol.response.RateLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rate-limit headers as the providers document and send them, and what hostile text cannot do. */
class RateLimitHeadersTest {
    private static final long NOW = Instant.parse("2024-08-01T12:00:00Z").toEpochMilli();

    private static Map<String, List<String>> headers(String... pairs) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], List.of(pairs[i + 1]));
        }
        return map;
    }

    @Test
    void anthropicsStandardWindowsAsItsRateLimitPageListsThem() {
        RateLimits limits = RateLimitHeaders.parse(headers(
                "anthropic-ratelimit-requests-limit", "50",
                "anthropic-ratelimit-requests-remaining", "49",
                "anthropic-ratelimit-requests-reset", "2024-08-01T12:00:07Z",
                "anthropic-ratelimit-tokens-limit", "80000",
                "anthropic-ratelimit-tokens-remaining", "20000",
                "anthropic-ratelimit-tokens-reset", "2024-08-01T12:00:30Z",
                "anthropic-ratelimit-input-tokens-limit", "40000",
                "anthropic-ratelimit-input-tokens-remaining", "4000",
                "anthropic-ratelimit-input-tokens-reset", "2024-08-01T12:00:30Z",
                "anthropic-ratelimit-output-tokens-limit", "8000",
                "anthropic-ratelimit-output-tokens-remaining", "8000",
                "anthropic-ratelimit-output-tokens-reset", "2024-08-01T12:00:01Z",
                "request-id", "req_018EeWyXxfu5pfWkrYcMdjWG"), NOW);
        assertEquals(new RateLimits.Window(50L, 49L, NOW + 7_000, 1 - 49 / 50.0, null), limits.requests());
        assertEquals(new RateLimits.Window(80000L, 20000L, NOW + 30_000, 0.75, null), limits.tokens());
        assertEquals(0.9, limits.inputTokens().utilization(), 1e-9);
        assertEquals(0.0, limits.outputTokens().utilization());
        assertEquals(0.9, limits.utilization(), 1e-9, "the fullest window");
        assertNull(limits.windows());
        assertNull(limits.selector(), "the session names it");
        assertEquals(NOW, limits.updatedAt());
    }

    @Test
    void anthropicsUnifiedPlanWindowsWithEpochSecondResets() {
        RateLimits limits = RateLimitHeaders.parse(headers(
                "anthropic-ratelimit-unified-status", "allowed_warning",
                "anthropic-ratelimit-unified-reset", "1778479200",
                "anthropic-ratelimit-unified-representative-claim", "five_hour",
                "anthropic-ratelimit-unified-fallback-percentage", "0.5",
                "anthropic-ratelimit-unified-5h-status", "allowed",
                "anthropic-ratelimit-unified-5h-reset", "1778479200",
                "anthropic-ratelimit-unified-5h-utilization", "0.19",
                "anthropic-ratelimit-unified-7d-status", "allowed_warning",
                "anthropic-ratelimit-unified-7d-reset", "1778814000",
                "anthropic-ratelimit-unified-7d-utilization", "0.91"), NOW);
        assertEquals("allowed_warning", limits.status());
        assertEquals(Map.of("5h", new RateLimits.Window(null, null, 1_778_479_200_000L, 0.19, "allowed"),
                "7d", new RateLimits.Window(null, null, 1_778_814_000_000L, 0.91, "allowed_warning")),
                limits.windows(), "claim and fallback percentage are not windows");
        assertEquals(0.91, limits.utilization());
        assertNull(limits.requests());
    }

    @Test
    void openAisHeadersAsItsRateLimitGuideShowsThem() {
        RateLimits limits = RateLimitHeaders.parse(headers(
                "x-ratelimit-limit-requests", "60",
                "x-ratelimit-limit-tokens", "150000",
                "x-ratelimit-remaining-requests", "59",
                "x-ratelimit-remaining-tokens", "149984",
                "x-ratelimit-reset-requests", "1s",
                "x-ratelimit-reset-tokens", "6m0s"), NOW);
        assertEquals(new RateLimits.Window(60L, 59L, NOW + 1_000, 1 - 59 / 60.0, null), limits.requests());
        assertEquals(new RateLimits.Window(150000L, 149984L, NOW + 360_000, 1 - 149984 / 150000.0, null),
                limits.tokens());
        assertEquals(1 - 59 / 60.0, limits.utilization(), 1e-12);
    }

    @Test
    void namesAreMatchedWithoutCaseAndAResetMayBeBareSeconds() {
        RateLimits limits = RateLimitHeaders.parse(headers(
                "X-RateLimit-Limit-Requests", "10",
                "X-RateLimit-Remaining-Requests", "1",
                "X-RateLimit-Reset-Requests", "2.5"), NOW);
        assertEquals(new RateLimits.Window(10L, 1L, NOW + 2_500, 0.9, null), limits.requests());
    }

    @Test
    void aReplyWithoutSuchHeadersHasNoFigures() {
        assertNull(RateLimitHeaders.parse(headers("content-type", "text/event-stream", "retry-after", "3"), NOW));
        assertNull(RateLimitHeaders.parse(Map.of(), NOW));
        assertNull(RateLimitHeaders.parse(null, NOW));
        // Gemini and Vertex AI send their own request id and nothing about quota
        assertNull(RateLimitHeaders.parse(headers("x-goog-request-id", "abc", "server-timing", "gfet4t7; dur=613"),
                NOW));
    }

    @Test
    void valuesThatAreNotWhatTheyClaimAreLeftOut() {
        RateLimits limits = RateLimitHeaders.parse(headers(
                "anthropic-ratelimit-requests-limit", "-5",
                "anthropic-ratelimit-requests-remaining", "1e9",
                "anthropic-ratelimit-requests-reset", "tomorrow",
                "anthropic-ratelimit-tokens-limit", "9".repeat(40),
                "anthropic-ratelimit-unified-5h-utilization", "NaN",
                "anthropic-ratelimit-unified-7d-utilization", "1.7",
                "anthropic-ratelimit-unified-7d-status", "<script>",
                "anthropic-ratelimit-unified-Bad Name!-utilization", "0.5",
                "x-ratelimit-reset-tokens", "soon",
                "x-ratelimit-limit-widgets", "5"), NOW);
        assertEquals(new RateLimits.Window(null, null, null, null, null), limits.requests());
        assertEquals(new RateLimits.Window(null, null, null, null, null), limits.tokens());
        assertEquals(new RateLimits.Window(null, null, null, null, null), limits.windows().get("5h"));
        assertEquals(new RateLimits.Window(null, null, null, 1.0, null), limits.windows().get("7d"),
                "past 1 is full; a status that is no word is dropped");
        assertEquals(2, limits.windows().size(), "a name that is no word is no window");
    }

    @Test
    void hugeAndManyValuesAreBoundedWork() {
        Map<String, List<String>> hostile = new LinkedHashMap<>();
        hostile.put("anthropic-ratelimit-requests-limit", List.of("1".repeat(5_000_000)));
        hostile.put("x-ratelimit-reset-tokens", List.of("1h".repeat(500)));
        for (int i = 0; i < 10_000; i++) {
            hostile.put("anthropic-ratelimit-unified-w" + i + "-utilization", List.of("0.99"));
        }
        RateLimits limits = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> RateLimitHeaders.parse(hostile, NOW));
        assertNull(limits.requests(), "over the header bound: ignored, not cut");
        assertNull(limits.tokens().resetAt(), "a duration of 500 parts is no duration");
        assertEquals(RateLimitHeaders.MAX_WINDOWS, limits.windows().size());
    }
}
