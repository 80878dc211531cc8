package dev.agentd.server.ai.http;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Replaces a request's own secrets (its API key and configured header values) with
 * {@code <redacted>} in any text agentd echoes: error bodies, transport causes. Short values are
 * left alone, since replacing "1" or "true" everywhere would mangle messages and protect nothing.
 */
public final class Redactor {
    public static final String MARK = "<redacted>";
    private static final int MIN_SECRET_LENGTH = 6;
    private final List<String> secrets;

    private Redactor(List<String> secrets) {
        this.secrets = secrets;
    }

    public static Redactor of(String apiKey, Collection<String> headerValues) {
        List<String> secrets = new ArrayList<>();
        if (apiKey != null && apiKey.length() >= MIN_SECRET_LENGTH) {
            secrets.add(apiKey);
        }
        for (String value : headerValues) {
            if (value != null && value.length() >= MIN_SECRET_LENGTH) {
                secrets.add(value);
            }
        }
        // Longest first, so a key that contains another secret is replaced whole.
        secrets.sort(Comparator.comparingInt(String::length).reversed());
        return new Redactor(List.copyOf(secrets));
    }

    public String apply(String text) {
        if (text == null) {
            return null;
        }
        String result = text;
        for (String secret : secrets) {
            result = result.replace(secret, MARK);
        }
        return result;
    }
}
