package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SPEC §5.5 retry hints on a fixed clock. */
class RetryHintsTest {
    /** 2025-11-05T10:00:00Z */
    private static final long NOW = Instant.parse("2025-11-05T10:00:00Z").toEpochMilli();

    private static Long headers(String name, String value) {
        return RetryHints.fromHeaders(Map.of(name, List.of(value)), NOW);
    }

    @Test
    void retryAfterMsIsMillisecondsAndMayBeFractional() {
        assertEquals(1500L, headers("retry-after-ms", "1500"));
        assertEquals(3L, headers("retry-after-ms", "2.5"));
    }

    @Test
    void retryAfterIsSecondsOrAnHttpDate() {
        assertEquals(30_000L, headers("retry-after", "30"));
        assertEquals(1_500L, headers("Retry-After", "1.5"));
        assertEquals(90_000L, headers("retry-after", "Wed, 05 Nov 2025 10:01:30 GMT"));
    }

    @Test
    void anthropicResetHeadersAreRfc3339Instants() {
        assertEquals(12_000L, headers("anthropic-ratelimit-requests-reset", "2025-11-05T10:00:12Z"));
        assertEquals(45_500L, headers("anthropic-ratelimit-tokens-reset", "2025-11-05T10:00:45.5Z"));
        assertEquals(60_000L, headers("anthropic-ratelimit-input-tokens-reset", "2025-11-05T11:01:00+01:00"));
        assertEquals(5_000L, headers("anthropic-ratelimit-output-tokens-reset", "2025-11-05T10:00:05Z"));
    }

    @Test
    void openAiResetHeadersAreDurations() {
        assertEquals(1_000L, headers("x-ratelimit-reset-requests", "1s"));
        assertEquals(360_000L, headers("x-ratelimit-reset-tokens", "6m0s"));
        assertEquals(120L, headers("x-ratelimit-reset-tokens", "120ms"));
        assertEquals(3_723_500L, headers("x-ratelimit-reset-requests", "1h2m3.5s"));
        assertEquals(7_660L, headers("x-ratelimit-reset-tokens", "7.66s"));
    }

    @Test
    void theLargestValidHeaderWins() {
        Map<String, List<String>> all = Map.of(
                "retry-after", List.of("2"),
                "x-ratelimit-reset-requests", List.of("120ms"),
                "x-ratelimit-reset-tokens", List.of("6m0s"),
                "retry-after-ms", List.of("garbage"));
        assertEquals(360_000L, RetryHints.fromHeaders(all, NOW));
    }

    @Test
    void invalidAndPastValuesAreIgnored() {
        assertNull(headers("retry-after", "soon"));
        assertNull(headers("retry-after", "-5"));
        assertNull(headers("anthropic-ratelimit-requests-reset", "2025-11-05T09:59:00Z"));
        assertNull(headers("x-ratelimit-reset-tokens", "6 minutes"));
        assertNull(headers("x-unrelated", "30"));
        assertNull(RetryHints.fromHeaders(Map.of(), NOW));
    }

    @Test
    void bodyTextHints() {
        assertEquals(120L, RetryHints.fromBody("Rate limit reached. Please try again in 120ms."));
        assertEquals(1_500L, RetryHints.fromBody("Please try again in 1.5s."));
        assertEquals(120_000L, RetryHints.fromBody("Usage limit reached, try again in 2 minutes"));
        assertEquals(360_000L, RetryHints.fromBody("Please try again in 6m0s. Visit https://…"));
        assertEquals(30_000L, RetryHints.fromBody("Too many requests; retry after 30 seconds"));
        assertEquals(17_000L, RetryHints.fromBody("{\"details\":[{\"@type\":\"RetryInfo\",\"retryDelay\":\"17s\"}]}"));
        assertEquals(2_500L, RetryHints.fromBody("upstream said retry-after-ms=2500"));
        assertEquals(35_581L, RetryHints.fromBody("Quota exceeded. Please retry in 35.580467143s."));
    }

    @Test
    void theLargestBodyHintWinsAndNoneGivesNull() {
        assertEquals(20_000L, RetryHints.fromBody("try again in 5s, or retry after 20 seconds"));
        assertNull(RetryHints.fromBody("Overloaded"));
        assertNull(RetryHints.fromBody(null));
    }

    @Test
    void headersWinOverTheBody() {
        assertEquals(3_000L, RetryHints.compute(Map.of("retry-after", List.of("3")), "try again in 50s", NOW));
        assertEquals(50_000L, RetryHints.compute(Map.of("x-request-id", List.of("req_429")), "try again in 50s", NOW));
    }
}
