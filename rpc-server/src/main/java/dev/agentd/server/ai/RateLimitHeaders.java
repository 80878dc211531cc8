package dev.agentd.server.ai;

import dev.agentd.protocol.response.RateLimits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rate-limit figures a reply's headers carry, read on every reply, successful or not (the
 * retry hint of a failed one is {@link RetryHints}'s; both live here, in the one home of header
 * reading). Pure: {@code now} is passed in.
 *
 * <ul>
 *   <li>Anthropic: {@code anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}}
 *       (reset in RFC 3339), and the plan's unified windows
 *       {@code anthropic-ratelimit-unified-{5h,7d,…}-{utilization,reset,status}} (utilization 0..1,
 *       reset in epoch seconds) with the overall {@code anthropic-ratelimit-unified-status}.
 *   <li>OpenAI and the gateways that copy it (OpenRouter, Groq …):
 *       {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}} (reset a duration such as {@code 6m0s}).
 * </ul>
 * Gemini, Vertex AI and Bedrock send none: their selectors simply get no figures.
 *
 * <p>The text is the provider's: values over {@link TextBounds#MAX_HEADER_CHARS} are ignored,
 * numbers are digit runs of bounded length, window names a short {@code [a-z0-9_]} word, and at
 * most {@link #MAX_WINDOWS} unified windows are kept. A value that does not parse is left out.
 */
public final class RateLimitHeaders {
    /** Unified windows kept per reply; Anthropic sends two or three. */
    static final int MAX_WINDOWS = 8;
    private static final int MAX_DIGITS = 18;
    private static final String ANTHROPIC = "anthropic-ratelimit-";
    private static final String UNIFIED = ANTHROPIC + "unified-";
    private static final String OPENAI = "x-ratelimit-";
    private static final Pattern WINDOW_NAME = Pattern.compile("[a-z0-9_]{1,16}+");
    private static final Pattern DECIMAL = Pattern.compile("\\d{1,6}+(?:\\.\\d{1,12}+)?+");
    private static final List<String> KINDS = List.of("requests", "tokens", "input-tokens", "output-tokens");

    private RateLimitHeaders() {}

    /** The figures of one reply's headers (names matched case-insensitively), or null when it sent none. */
    public static RateLimits parse(Map<String, List<String>> headers, long nowMs) {
        if (headers == null || headers.isEmpty()) {
            return null;
        }
        Map<String, Parts> kinds = new LinkedHashMap<>();
        Map<String, Parts> windows = new LinkedHashMap<>();
        String status = null;
        for (Map.Entry<String, List<String>> header : headers.entrySet()) {
            String value = first(header.getValue());
            if (header.getKey() == null || value == null) {
                continue;
            }
            String key = header.getKey().toLowerCase(Locale.ROOT);
            if (key.equals(UNIFIED + "status")) {
                status = word(value);
            } else if (key.startsWith(UNIFIED)) {
                unified(key.substring(UNIFIED.length()), value, windows);
            } else if (key.startsWith(ANTHROPIC)) {
                anthropic(key.substring(ANTHROPIC.length()), value, kinds);
            } else if (key.startsWith(OPENAI)) {
                openAi(key.substring(OPENAI.length()), value, kinds, nowMs);
            }
        }
        if (kinds.isEmpty() && windows.isEmpty() && status == null) {
            return null;
        }
        Map<String, RateLimits.Window> unified = new LinkedHashMap<>();
        windows.forEach((name, parts) -> unified.put(name, parts.window()));
        RateLimits.Window requests = window(kinds, "requests");
        RateLimits.Window tokens = window(kinds, "tokens");
        RateLimits.Window input = window(kinds, "input-tokens");
        RateLimits.Window output = window(kinds, "output-tokens");
        Double utilization = null;
        for (RateLimits.Window w : concat(unified.values(), requests, tokens, input, output)) {
            if (w != null && w.utilization() != null && (utilization == null || w.utilization() > utilization)) {
                utilization = w.utilization();
            }
        }
        return new RateLimits(null, requests, tokens, input, output, unified, status, utilization, nowMs);
    }

    /** {@code requests-limit}, {@code input-tokens-reset} … */
    private static void anthropic(String rest, String value, Map<String, Parts> kinds) {
        for (String kind : KINDS) {
            if (rest.startsWith(kind + "-")) {
                String field = rest.substring(kind.length() + 1);
                Parts parts = kinds.computeIfAbsent(kind, k -> new Parts());
                switch (field) {
                    case "limit" -> parts.limit = count(value);
                    case "remaining" -> parts.remaining = count(value);
                    case "reset" -> parts.resetAt = RetryHints.instantMs(value);
                    default -> { }
                }
                return;
            }
        }
    }

    /** {@code limit-requests}, {@code reset-tokens} … */
    private static void openAi(String rest, String value, Map<String, Parts> kinds, long nowMs) {
        int dash = rest.indexOf('-');
        if (dash < 0) {
            return;
        }
        String field = rest.substring(0, dash);
        String kind = rest.substring(dash + 1);
        if (!kind.equals("requests") && !kind.equals("tokens")) {
            return;
        }
        Parts parts = kinds.computeIfAbsent(kind, k -> new Parts());
        switch (field) {
            case "limit" -> parts.limit = count(value);
            case "remaining" -> parts.remaining = count(value);
            case "reset" -> {
                Long ms = RetryHints.duration(value);
                Long seconds = ms == null && DECIMAL.matcher(value).matches() ? seconds(value) : ms;
                parts.resetAt = seconds == null ? null : nowMs + seconds;
            }
            default -> { }
        }
    }

    /** {@code 5h-utilization}, {@code 7d_opus-reset} …; other unified headers are not windows. */
    private static void unified(String rest, String value, Map<String, Parts> windows) {
        int dash = rest.lastIndexOf('-');
        if (dash <= 0) {
            return;
        }
        String name = rest.substring(0, dash);
        String field = rest.substring(dash + 1);
        if (!field.equals("utilization") && !field.equals("reset") && !field.equals("status")
                || !WINDOW_NAME.matcher(name).matches()) {
            return;
        }
        Parts parts = windows.get(name);
        if (parts == null) {
            if (windows.size() >= MAX_WINDOWS) {
                return;
            }
            parts = new Parts();
            windows.put(name, parts);
        }
        switch (field) {
            case "utilization" -> parts.utilization = fraction(value);
            case "reset" -> parts.resetAt = epochSecondsOrInstant(value);
            default -> parts.status = word(value);
        }
    }

    private static RateLimits.Window window(Map<String, Parts> kinds, String kind) {
        Parts parts = kinds.get(kind);
        return parts == null ? null : parts.window();
    }

    private static List<RateLimits.Window> concat(Collection<RateLimits.Window> unified, RateLimits.Window... more) {
        List<RateLimits.Window> all = new ArrayList<>(unified);
        all.addAll(Arrays.asList(more));
        return all;
    }

    private static String first(List<String> values) {
        if (values == null || values.isEmpty()) {
            return null;
        }
        String raw = values.get(0);
        return raw == null || raw.isBlank() || raw.length() > TextBounds.MAX_HEADER_CHARS ? null : raw.trim();
    }

    private static Long count(String text) {
        if (text.isEmpty() || text.length() > MAX_DIGITS) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i)) || text.charAt(i) > '9') {
                return null;
            }
        }
        return Long.parseLong(text);
    }

    /** A utilization, 0..1; a value past 1 (an overage) counts as full. */
    private static Double fraction(String text) {
        if (!DECIMAL.matcher(text).matches()) {
            return null;
        }
        return Math.min(1.0, Double.parseDouble(text));
    }

    private static Long seconds(String text) {
        return (long) Math.ceil(Double.parseDouble(text) * 1000);
    }

    private static Long epochSecondsOrInstant(String text) {
        Long seconds = count(text);
        return seconds != null && seconds < Long.MAX_VALUE / 1000 ? seconds * 1000 : RetryHints.instantMs(text);
    }

    /** A status word, kept only when it is one (it is shown to clients). */
    private static String word(String text) {
        return WINDOW_NAME.matcher(text.toLowerCase(Locale.ROOT)).matches() ? text.toLowerCase(Locale.ROOT) : null;
    }

    /** One window's parts as they arrive, in any order. */
    private static final class Parts {
        Long limit;
        Long remaining;
        Long resetAt;
        Double utilization;
        String status;

        RateLimits.Window window() {
            Double used = utilization;
            if (used == null && limit != null && remaining != null && limit > 0) {
                used = Math.max(0.0, Math.min(1.0, 1.0 - (double) remaining / limit));
            }
            return new RateLimits.Window(limit, remaining, resetAt, used, status);
        }
    }
}
