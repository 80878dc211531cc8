package dev.agentd.server.ai.vertex;

import dev.agentd.server.ai.http.RequestHeaders;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a Vertex AI call goes: the publisher a model id belongs to, the location and project, the
 * host and the method path. Pure rules over the environment given; nothing here reads a file.
 *
 * <p>A model id starting with {@code claude} (any case, with or without an {@code @version}) is
 * Anthropic's and is called with {@code streamRawPredict}; every other id is Google's, called with
 * {@code streamGenerateContent?alt=sse}.
 */
final class VertexEndpoint {
    /** Used when neither GOOGLE_CLOUD_LOCATION nor a regional baseUrl names one: Gemini and Claude both serve it. */
    static final String DEFAULT_LOCATION = "global";
    private static final Pattern LOCATION = Pattern.compile("[a-z][a-z0-9-]{0,39}");
    private static final Pattern REGIONAL_HOST = Pattern.compile("([a-z][a-z0-9-]{0,39})-aiplatform\\.googleapis\\.com");
    /** A baseUrl already ending in an API version ({@code /v1}, {@code /v1beta1}) gets no second one. */
    private static final Pattern VERSIONED = Pattern.compile(".*/v\\d+(?:beta\\d*|alpha\\d*)?$");

    /** The two model publishers agentd calls on Vertex. */
    enum Publisher {
        GOOGLE("google", ":streamGenerateContent?alt=sse"),
        ANTHROPIC("anthropic", ":streamRawPredict");

        final String segment;
        final String method;

        Publisher(String segment, String method) {
            this.segment = segment;
            this.method = method;
        }
    }

    private VertexEndpoint() {}

    static Publisher publisher(String modelId) {
        return modelId.toLowerCase(Locale.ROOT).startsWith("claude") ? Publisher.ANTHROPIC : Publisher.GOOGLE;
    }

    /**
     * GOOGLE_CLOUD_LOCATION, else the region of a standard regional baseUrl
     * ({@code https://us-east5-aiplatform.googleapis.com}), else {@link #DEFAULT_LOCATION}.
     */
    static String location(UnaryOperator<String> env, String baseUrl) throws RequestHeaders.InvalidRequestException {
        String configured = env.apply("GOOGLE_CLOUD_LOCATION");
        if (configured != null && !configured.isBlank()) {
            String location = configured.trim().toLowerCase(Locale.ROOT);
            if (!LOCATION.matcher(location).matches()) {
                throw new RequestHeaders.InvalidRequestException("GOOGLE_CLOUD_LOCATION is not a Vertex AI location "
                        + "(expected a name such as global, us-central1 or europe-west4)");
            }
            return location;
        }
        if (baseUrl != null && !baseUrl.isBlank() && !baseUrl.contains("{location}")) {
            try {
                String host = URI.create(baseUrl.trim()).getHost();
                Matcher m = host == null ? null : REGIONAL_HOST.matcher(host.toLowerCase(Locale.ROOT));
                if (m != null && m.matches()) {
                    return m.group(1);
                }
            } catch (IllegalArgumentException e) {
                // an invalid baseUrl fails later, with its own message
            }
        }
        return DEFAULT_LOCATION;
    }

    /** GOOGLE_CLOUD_PROJECT, else GCLOUD_PROJECT (pi's order), else null. */
    static String projectFromEnv(UnaryOperator<String> env) {
        for (String name : new String[] {"GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"}) {
            String value = env.apply(name);
            if (value != null && !value.isBlank()) {
                return value.trim();
            }
        }
        return null;
    }

    /**
     * The standard host of {@code location} when the configured baseUrl is absent or pi's template
     * ({@code https://{location}-aiplatform.googleapis.com}); any other baseUrl is a custom endpoint
     * (a proxy, a test server) used as it is.
     */
    static String baseUrl(String configured, String location) {
        if (configured != null && !configured.isBlank() && !configured.contains("{location}")) {
            return configured.trim();
        }
        return location.equals("global") ? "https://aiplatform.googleapis.com"
                : "https://" + location + "-aiplatform.googleapis.com";
    }

    /**
     * {@code [/v1]/projects/{project}/locations/{location}/publishers/{publisher}/models/{id}:{method}};
     * without a project (an API key in express mode) {@code [/v1]/publishers/…}. {@code /v1} is left
     * out when the baseUrl already ends in a version. Each piece is percent-encoded ({@code @} of
     * Claude's versioned ids stays, as Vertex writes it).
     */
    static String path(String baseUrl, String project, String location, String modelId) {
        Publisher publisher = publisher(modelId);
        String base = baseUrl == null ? "" : baseUrl.trim();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        StringBuilder path = new StringBuilder(VERSIONED.matcher(base).matches() ? "" : "/v1");
        if (project != null) {
            path.append("/projects/").append(encode(project)).append("/locations/").append(encode(location));
        }
        return path.append("/publishers/").append(publisher.segment).append("/models/").append(encode(modelId))
                .append(publisher.method).toString();
    }

    static String encode(String segment) {
        StringBuilder out = new StringBuilder();
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '@')) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}
