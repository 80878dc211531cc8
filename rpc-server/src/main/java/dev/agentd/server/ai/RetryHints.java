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
 *
 * <p>The text is the provider's, so the work is bounded: header values over
 * {@link TextBounds#MAX_HEADER_CHARS} are ignored, bodies are read up to
 * {@link TextBounds#MAX_HINT_SOURCE_CHARS}, every quantifier is possessive (no backtracking) and
 * durations are read by a hand-written scanner instead of a repeated group.
 */
public final class RetryHints {
    private static final List<String> RESET_TIMESTAMP_HEADERS = List.of(
            "anthropic-ratelimit-requests-reset", "anthropic-ratelimit-tokens-reset",
            "anthropic-ratelimit-input-tokens-reset", "anthropic-ratelimit-output-tokens-reset");
    private static final List<String> RESET_DURATION_HEADERS = List.of(
            "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens");
    /** Longer numbers are no hint; it also keeps {@code parseDouble} off megabytes of digits. */
    private static final int MAX_NUMBER_CHARS = 32;
    /** A Go-style duration has a handful of parts ({@code 1h2m3.5s}); more is not a duration. */
    private static final int MAX_DURATION_PARTS = 8;
    private static final Pattern NUMBER = Pattern.compile("\\d++(?:\\.\\d++)?+");
    private static final String UNIT_WORDS = "milliseconds?|millis|msecs?|seconds?|secs?|minutes?|mins?|hours?|hrs?";
    private static final Pattern UNIT_WORD = Pattern.compile(UNIT_WORDS, Pattern.CASE_INSENSITIVE);
    /** Only the phrase; what follows it is read by {@link #scanHint}. */
    static final Pattern TRY_AGAIN = Pattern.compile("(?:try again|retry) in\\s++", Pattern.CASE_INSENSITIVE);
    static final Pattern RETRY_AFTER_TEXT = Pattern.compile(
            "retry after\\s++(\\d++(?:\\.\\d++)?+)\\s*+(ms|s|m|h|" + UNIT_WORDS + ")?\\b",
            Pattern.CASE_INSENSITIVE);
    static final Pattern RETRY_DELAY_JSON = Pattern.compile(
            "\"retryDelay\"\\s*+:\\s*+\"(\\d++(?:\\.\\d++)?+(?:ns|us|µs|ms|s|m|h)?+)\"");
    static final Pattern RETRY_AFTER_MS_TEXT = Pattern.compile("retry-after-ms\\s*+[=:]\\s*+(\\d++(?:\\.\\d++)?+)",
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
                if (raw == null || raw.isBlank() || raw.length() > TextBounds.MAX_HEADER_CHARS) {
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

    /** The largest hint found in an error body's text (its first {@link TextBounds#MAX_HINT_SOURCE_CHARS}). */
    public static Long fromBody(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String body = TextBounds.cut(text, TextBounds.MAX_HINT_SOURCE_CHARS);
        Hint best = new Hint();
        Matcher m = TRY_AGAIN.matcher(body);
        while (m.find()) {
            best.offer(scanHint(body, m.end()));
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
        if (text == null) {
            return null;
        }
        String trimmed = text.trim();
        Scan scan = new Scan(trimmed, 0);
        Double ms = scan.goDuration();
        return ms != null && scan.at == trimmed.length() ? toMillis(ms) : null;
    }

    /**
     * What follows "try again in": a Go-style duration ({@code 6m0s}), a number and a unit word
     * ({@code 2 minutes}, {@code 20sec}) or a bare number of seconds; null for anything else.
     */
    static Long scanHint(String text, int from) {
        Scan scan = new Scan(text, from);
        Double go = scan.goDuration();
        if (go != null && !Character.isLetterOrDigit(scan.peek())) {
            return toMillis(go);
        }
        scan.at = from;
        String number = scan.number();
        if (number == null) {
            return null;
        }
        int afterNumber = scan.at;
        scan.spaces();
        String word = scan.letters();
        if (!word.isEmpty() && !Character.isLetter(scan.peek()) && UNIT_WORD.matcher(word).matches()) {
            return scaled(number, word);
        }
        if (afterNumber < text.length() && Character.isLetter(text.charAt(afterNumber))) {
            return null; // "5a", "1a1a…": not a hint
        }
        return number(number, 1000); // a bare number is seconds
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
        if (text.length() > MAX_NUMBER_CHARS || !NUMBER.matcher(text).matches()) {
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
        Long at = instantMs(text);
        return at == null ? null : at - nowMs;
    }

    /** An RFC 3339 timestamp in epoch ms, or null (also read by {@link RateLimitHeaders}). */
    static Long instantMs(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant().toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            try {
                return Instant.parse(text).toEpochMilli();
            } catch (DateTimeParseException | ArithmeticException again) {
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

    /** A cursor over text; each method reads at most what it returns (linear overall). */
    private static final class Scan {
        private final String text;
        int at;

        Scan(String text, int at) {
            this.text = text;
            this.at = at;
        }

        char peek() {
            return at < text.length() ? text.charAt(at) : ' ';
        }

        /** Digits with an optional fraction, or null (cursor unmoved) when none or too long. */
        String number() {
            int start = at;
            int i = digits(at);
            if (i == at) {
                return null;
            }
            if (i + 1 < text.length() && text.charAt(i) == '.' && Character.isDigit(text.charAt(i + 1))) {
                i = digits(i + 1);
            }
            if (i - start > MAX_NUMBER_CHARS) {
                return null;
            }
            at = i;
            return text.substring(start, i);
        }

        String letters() {
            int start = at;
            while (at < text.length() && (Character.isLetter(text.charAt(at))) && at - start <= 16) {
                at++;
            }
            return text.substring(start, at);
        }

        void spaces() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        /** One or more number+unit parts (ns, us, µs, ms, s, m, h) in ms, or null. */
        Double goDuration() {
            double ms = 0;
            int parts = 0;
            while (parts < MAX_DURATION_PARTS) {
                int start = at;
                String number = number();
                if (number == null) {
                    break;
                }
                String unit = goUnit();
                if (unit == null) {
                    at = start;
                    break;
                }
                ms += Double.parseDouble(number) * unitMs(unit);
                parts++;
            }
            return parts == 0 || Character.isDigit(peek()) ? null : ms;
        }

        private String goUnit() {
            for (String unit : List.of("ns", "us", "µs", "ms", "s", "m", "h")) {
                if (text.startsWith(unit, at)) {
                    at += unit.length();
                    return unit;
                }
            }
            return null;
        }

        private int digits(int from) {
            int i = from;
            while (i < text.length() && Character.isDigit(text.charAt(i)) && i - from <= MAX_NUMBER_CHARS) {
                i++;
            }
            return i;
        }
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
