package dev.agentd.server.ai.http;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import dev.agentd.server.runtime.KnownSecrets;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Replaces secrets with {@code <redacted>} in any text agentd echoes: error bodies, transport
 * causes — also in the encodings an echo commonly uses (URL, base64, JSON escapes). The secrets
 * are the request's own (its API key and configured header values) and every other the process
 * knows ({@link KnownSecrets}: other providers' keys, a key rotated away from, which a proxy or a
 * usage-limit body may still quote). Short values are left alone, since replacing "1" or "true"
 * everywhere would mangle messages and protect nothing.
 */
public final class Redactor {
    public static final String MARK = "<redacted>";
    private static final int MIN_SECRET_LENGTH = KnownSecrets.MIN_LENGTH;
    /** Every literal form of every secret, longest first. */
    private final List<String> secrets;
    /** The secrets themselves, for the escape-tolerant scan. */
    private final List<String> raw;

    private Redactor(List<String> secrets, List<String> raw) {
        this.secrets = secrets;
        this.raw = raw;
    }

    public static Redactor of(String apiKey, Collection<String> headerValues) {
        Set<String> candidates = new LinkedHashSet<>();
        candidates.add(apiKey);
        candidates.addAll(headerValues);
        candidates.addAll(KnownSecrets.all());
        List<String> secrets = new ArrayList<>();
        for (String value : candidates) {
            if (value != null && value.length() >= MIN_SECRET_LENGTH) {
                secrets.add(value);
            }
        }
        Set<String> forms = new LinkedHashSet<>();
        for (String secret : secrets) {
            forms.addAll(encodings(secret));
        }
        List<String> all = new ArrayList<>(forms);
        // Longest first, so a key that contains another secret is replaced whole.
        all.sort(Comparator.comparingInt(String::length).reversed());
        return new Redactor(List.copyOf(all), List.copyOf(secrets));
    }

    /**
     * The secret as servers and libraries commonly echo it: raw, URL-encoded (upper- and
     * lower-case hex), base64 (standard and URL-safe, with and without padding) and JSON-escaped
     * (an escaped slash, and every character as a backslash-u escape, which a client decodes to the key).
     */
    static Set<String> encodings(String secret) {
        Set<String> forms = new LinkedHashSet<>();
        forms.add(secret);
        String url = URLEncoder.encode(secret, StandardCharsets.UTF_8);
        forms.add(url);
        forms.add(url.replace("+", "%20"));
        forms.add(lowerHexEscapes(url));
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        String base64 = Base64.getEncoder().encodeToString(bytes);
        forms.add(base64);
        forms.add(stripPadding(base64));
        String urlSafe = Base64.getUrlEncoder().encodeToString(bytes);
        forms.add(urlSafe);
        forms.add(stripPadding(urlSafe));
        forms.add(secret.replace("/", "\\/"));
        StringBuilder upper = new StringBuilder();
        StringBuilder lower = new StringBuilder();
        for (int i = 0; i < secret.length(); i++) {
            String hex = String.format("%04x", (int) secret.charAt(i));
            lower.append("\\u").append(hex);
            upper.append("\\u").append(hex.toUpperCase(Locale.ROOT));
        }
        forms.add(lower.toString());
        forms.add(upper.toString());
        forms.removeIf(form -> form.length() < MIN_SECRET_LENGTH);
        return forms;
    }

    private static String stripPadding(String base64) {
        int end = base64.length();
        while (end > 0 && base64.charAt(end - 1) == '=') {
            end--;
        }
        return base64.substring(0, end);
    }

    /** {@code %2F} → {@code %2f}: both are valid, and servers differ. */
    private static String lowerHexEscapes(String url) {
        StringBuilder out = new StringBuilder(url.length());
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            out.append(c);
            if (c == '%' && i + 2 < url.length()) {
                out.append(Character.toLowerCase(url.charAt(i + 1))).append(Character.toLowerCase(url.charAt(i + 2)));
                i += 2;
            }
        }
        return out.toString();
    }

    public String apply(String text) {
        if (text == null) {
            return null;
        }
        String result = text;
        for (String secret : secrets) {
            result = result.replace(secret, MARK);
        }
        for (String secret : raw) {
            result = redactEscaped(result, secret);
        }
        return result;
    }

    /**
     * Replaces echoes of {@code secret} in which any character may be written raw, as {@code %HH}
     * (either case) or as a backslash-u escape (either case) — mixed forms a fixed list of
     * encodings misses. Linear in {@code text.length() * secret.length()}: no pattern, no backtracking.
     */
    static String redactEscaped(String text, String secret) {
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        while (i < text.length()) {
            int end = matchEscaped(text, i, secret);
            if (end < 0) {
                i++;
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length());
            }
            out.append(text, copied, i).append(MARK);
            copied = end;
            i = end;
        }
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }

    /** The end of an echo of {@code secret} starting at {@code at}, or -1. */
    private static int matchEscaped(String text, int at, String secret) {
        int pos = at;
        for (int k = 0; k < secret.length(); k++) {
            char want = secret.charAt(k);
            if (pos < text.length() && text.charAt(pos) == want) {
                pos++;
            } else if (want < 0x80 && pos + 3 <= text.length() && text.charAt(pos) == '%'
                    && hexValue(text, pos + 1, 2) == want) {
                pos += 3;
            } else if (pos + 6 <= text.length() && text.charAt(pos) == '\\' && text.charAt(pos + 1) == 'u'
                    && hexValue(text, pos + 2, 4) == want) {
                pos += 6;
            } else {
                return -1;
            }
        }
        return pos;
    }

    private static int hexValue(String text, int from, int digits) {
        int value = 0;
        for (int i = from; i < from + digits; i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0) {
                return -1;
            }
            value = value * 16 + digit;
        }
        return value;
    }
}
