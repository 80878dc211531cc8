package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Hints are read from provider text: 1 MB of each pattern's worst case (the old repeated groups
 * recursed once per character into a StackOverflowError) finishes well within a bound that only
 * quadratic or recursive parsing would exceed, and a bad hint is simply no hint.
 */
class RetryHintsBoundsTest {
    private static final int MB = 1 << 20;
    private static final Duration BOUND = Duration.ofSeconds(10);

    static String repeat(String unit) {
        return unit.repeat(MB / unit.length() + 1);
    }

    static void linear(Pattern pattern, String worst) {
        assertTimeoutPreemptively(BOUND, () -> {
            Matcher matcher = pattern.matcher(worst);
            while (matcher.find()) {
                // every match, as fromBody does
            }
        });
    }

    @Test
    void aHugeTryAgainChainIsNoHint() {
        assertNull(assertTimeoutPreemptively(BOUND, () -> RetryHints.fromBody("try again in " + repeat("1a"))));
        assertNull(assertTimeoutPreemptively(BOUND, () -> RetryHints.scanHint(repeat("1a"), 0)));
        assertNull(assertTimeoutPreemptively(BOUND, () -> RetryHints.scanHint(repeat("1s"), 0)));
        assertNull(assertTimeoutPreemptively(BOUND, () -> RetryHints.scanHint(repeat("1"), 0)));
        assertNull(assertTimeoutPreemptively(BOUND, () -> RetryHints.duration(repeat("1s"))));
        assertNull(assertTimeoutPreemptively(BOUND, () -> RetryHints.duration(repeat("1.1"))));
    }

    @Test
    void everyBodyPatternIsLinear() {
        linear(RetryHints.TRY_AGAIN, repeat("try again in "));
        linear(RetryHints.RETRY_AFTER_TEXT, "retry after " + repeat("1") + "x");
        linear(RetryHints.RETRY_AFTER_TEXT, repeat("retry after 1."));
        linear(RetryHints.RETRY_DELAY_JSON, "\"retryDelay\":\"" + repeat("1"));
        linear(RetryHints.RETRY_AFTER_MS_TEXT, "retry-after-ms=" + repeat("1") + "x");
        assertEquals(1_000L, assertTimeoutPreemptively(BOUND, () -> RetryHints.fromBody(repeat("retry after 1 x "))));
        assertNull(RetryHints.fromBody("x".repeat(TextBounds.MAX_HINT_SOURCE_CHARS) + "retry after 9 seconds"),
                "past the hint source bound the text is not read");
    }

    @Test
    void aHugeHeaderValueIsIgnored() {
        Map<String, List<String>> headers = Map.of("x-ratelimit-reset-requests", List.of(repeat("1s")),
                "retry-after", List.of(repeat("9")), "retry-after-ms", List.of("1" + "0".repeat(2000)));
        assertNull(assertTimeoutPreemptively(BOUND, () -> RetryHints.fromHeaders(headers, 0)));
        String justOverTheBound = " ".repeat(TextBounds.MAX_HEADER_CHARS) + "7";
        assertNull(RetryHints.fromHeaders(Map.of("retry-after", List.of(justOverTheBound)), 0));
        assertEquals(7_000L, RetryHints.fromHeaders(Map.of("retry-after", List.of(" 7")), 0));
    }

    @Test
    void theScannerReadsTheUsualForms() {
        assertEquals(20_000L, RetryHints.fromBody("Please try again in 20sec."));
        assertEquals(90_000L, RetryHints.fromBody("try again in 1m30s"));
        assertEquals(180_000L, RetryHints.fromBody("Please retry in 3 minutes."));
        assertEquals(5_000L, RetryHints.fromBody("try again in 5. Thanks"));
        assertEquals(250L, RetryHints.fromBody("try again in 250 milliseconds"));
        assertNull(RetryHints.fromBody("try again in 5a"));
        assertEquals(5_000L, RetryHints.fromBody("try again in 5 secondsmore"), "an unknown word: bare seconds");
        assertNull(RetryHints.fromBody("try again in later"));
        assertNull(RetryHints.duration("1s1s1s1s1s1s1s1s1s"), "more parts than a real duration has");
        assertEquals(8_000L, RetryHints.duration("1s1s1s1s1s1s1s1s"));
    }
}
