package dev.agentd.server.ai;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Server retry hints (SPEC §5.5), pure: {@code now} is passed in. Headers first —
 * {@code retry-after-ms}, {@code retry-after} (seconds or HTTP date),
 * {@code anthropic-ratelimit-*-reset} (RFC 3339), {@code x-ratelimit-reset-*} (durations such as
 * {@code 6m0s}); when none is usable, the body text ({@code try again in 120ms},
 * {@code retry after 30 seconds}, {@code "retryDelay":"30s"}, {@code retry-after-ms=N}). Of the
 * valid, non-negative hints of a source the largest wins; none gives null.
 */
public final class RetryHints {
    private static final List<String> RESET_TIMESTAMP_HEADERS = List.of(
            "anthropic-ratelimit-requests-reset", "anthropic-ratelimit-tokens-reset",
            "anthropic-ratelimit-input-tokens-reset", "anthropic-ratelimit-output-tokens-reset");
    private static final List<String> RESET_DURATION_HEADERS = List.of(
            "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens");
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:\\.\\d+)?");
    /** A Go-style duration: one or more number+unit parts ({@code 1h2m3.5s}, {@code 120ms}). */
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");
    private static final Pattern DURATION = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:ns|us|µs|ms|s|m|h))+");
    private static final String UNIT_WORDS = "(milliseconds?|millis|msecs?|seconds?|secs?|minutes?|mins?|hours?|hrs?)";
    private static final Pattern TRY_AGAIN = Pattern.compile(
            "(?:try again|retry) in\\s+(\\d+(?:\\.\\d+)?(?:[a-zµ]+\\d*(?:\\.\\d+)?)*)(?:\\s*" + UNIT_WORDS + "\\b)?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RETRY_AFTER_TEXT = Pattern.compile(
            "retry after\\s+(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|" + UNIT_WORDS.substring(1, UNIT_WORDS.length() - 1)
                    + ")?\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern RETRY_DELAY_JSON = Pattern.compile(
            "\"retryDelay\"\\s*:\\s*\"(\\d+(?:\\.\\d+)?(?:ns|us|µs|ms|s|m|h)?)\"");
    private static final Pattern RETRY_AFTER_MS_TEXT = Pattern.compile("retry-after-ms\\s*[=:]\\s*(\\d+(?:\\.\\d+)?)",
            Pattern.CASE_INSENSITIVE);

    private RetryHints() {}

    /** Headers first, else the body; null when neither carries a hint. */
    public static Long compute(Map<String, List<String>> headers, String body, long nowMs) {
        Long fromHeaders = fromHeaders(headers, nowMs);
        return fromHeaders != null ? fromHeaders : fromBody(body);
    }

    /** The largest hint among the response headers (names matched case-insensitively). */
    public static Long fromHeaders(Map<String, List<String>> headers, long nowMs) {
        if (headers == null || headers.isEmpty()) {
            return null;
        }
        Hint best = new Hint();
        headers.forEach((name, values) -> {
            if (name == null || values == null) {
                return;
            }
            String key = name.toLowerCase(Locale.ROOT);
            for (String raw : values) {
                if (raw == null || raw.isBlank()) {
                    continue;
                }
                String value = raw.trim();
                if (key.equals("retry-after-ms")) {
                    best.offer(number(value, 1));
                } else if (key.equals("retry-after")) {
                    Long seconds = number(value, 1000);
                    best.offer(seconds != null ? seconds : httpDate(value, nowMs));
                } else if (RESET_TIMESTAMP_HEADERS.contains(key)) {
                    best.offer(rfc3339(value, nowMs));
                } else if (RESET_DURATION_HEADERS.contains(key)) {
                    Long seconds = number(value, 1000);
                    best.offer(seconds != null ? seconds : duration(value));
                }
            }
        });
        return best.value;
    }

    /** The largest hint found in an error body's text. */
    public static Long fromBody(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        Hint best = new Hint();
        Matcher m = TRY_AGAIN.matcher(body);
        while (m.find()) {
            best.offer(m.group(2) != null ? scaled(m.group(1), m.group(2)) : durationOrSeconds(m.group(1)));
        }
        m = RETRY_AFTER_TEXT.matcher(body);
        while (m.find()) {
            best.offer(scaled(m.group(1), m.group(2) == null ? "s" : m.group(2)));
        }
        m = RETRY_DELAY_JSON.matcher(body);
        while (m.find()) {
            best.offer(durationOrSeconds(m.group(1)));
        }
        m = RETRY_AFTER_MS_TEXT.matcher(body);
        while (m.find()) {
            best.offer(number(m.group(1), 1));
        }
        return best.value;
    }

    /** A Go-style duration in milliseconds ({@code 6m0s}, {@code 1h2m3.5s}, {@code 120ms}), or null. */
    public static Long duration(String text) {
        if (text == null || !DURATION.matcher(text.trim()).matches()) {
            return null;
        }
        double ms = 0;
        Matcher part = DURATION_PART.matcher(text.trim());
        while (part.find()) {
            ms += Double.parseDouble(part.group(1)) * unitMs(part.group(2));
        }
        return toMillis(ms);
    }

    private static Long durationOrSeconds(String text) {
        Long plain = number(text, 1000);
        return plain != null ? plain : duration(text);
    }

    private static Long scaled(String number, String unit) {
        return number(number, unitMs(unit));
    }

    private static double unitMs(String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        if (u.equals("ns")) {
            return 1e-6;
        }
        if (u.equals("us") || u.equals("µs")) {
            return 1e-3;
        }
        if (u.equals("ms") || u.startsWith("milli") || u.startsWith("msec")) {
            return 1;
        }
        if (u.equals("m") || u.startsWith("min")) {
            return 60_000;
        }
        if (u.equals("h") || u.startsWith("h")) {
            return 3_600_000;
        }
        return 1000; // s, sec, second(s)
    }

    private static Long number(String text, double factor) {
        if (!NUMBER.matcher(text).matches()) {
            return null;
        }
        return toMillis(Double.parseDouble(text) * factor);
    }

    private static Long httpDate(String text, long nowMs) {
        try {
            ZonedDateTime date = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME);
            return date.toInstant().toEpochMilli() - nowMs;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Long rfc3339(String text, long nowMs) {
        try {
            return OffsetDateTime.parse(text).toInstant().toEpochMilli() - nowMs;
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(text).toEpochMilli() - nowMs;
            } catch (DateTimeParseException again) {
                return null;
            }
        }
    }

    private static Long toMillis(double ms) {
        if (Double.isNaN(ms) || ms < 0 || ms > Long.MAX_VALUE / 2.0) {
            return null;
        }
        return (long) Math.ceil(ms);
    }

    /** Keeps the largest non-negative value offered. */
    private static final class Hint {
        Long value;

        void offer(Long candidate) {
            if (candidate != null && candidate >= 0 && (value == null || candidate > value)) {
                value = candidate;
            }
        }
    }
}
