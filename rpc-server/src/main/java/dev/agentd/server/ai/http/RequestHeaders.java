package dev.agentd.server.ai.http;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Builds the POST of a provider call. Headers the JDK client manages itself are skipped (setting
 * them throws); an invalid header fails with a message naming the header, never its value.
 */
public final class RequestHeaders {
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private RequestHeaders() {}

    /** A failure safe to show: it names what is wrong, never a value. */
    public static final class InvalidRequestException extends Exception {
        public InvalidRequestException(String message) {
            super(message);
        }
    }

    /** {@code baseUrl} without trailing slashes, then {@code path}. */
    public static String join(String baseUrl, String path) {
        String base = baseUrl == null ? "" : baseUrl.trim();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return base + path;
    }

    public static HttpRequest post(URI uri, Map<String, String> headers, byte[] body) throws InvalidRequestException {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new InvalidRequestException("Invalid baseUrl: expected an http(s) URL");
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, String> header : headers.entrySet()) {
            String name = header.getKey();
            if (name == null || header.getValue() == null || RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            try {
                builder.setHeader(name, header.getValue());
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException("Invalid request header '" + safeName(name) + "'");
            }
        }
        return builder.build();
    }

    private static String safeName(String name) {
        return name.replaceAll("[^A-Za-z0-9_-]", "?");
    }
}
