package dev.agentd.server.ai.responses;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Where an {@code azure-openai-responses} request goes, as pi 1.6 resolves it: a resource root
 * ({@code https://r.openai.azure.com}, {@code …cognitiveservices.azure.com}, {@code …ai.azure.com},
 * optionally ending in {@code /openai} or {@code /openai/v1/responses}) becomes
 * {@code …/openai/v1}; any other baseUrl is used as it is. The request is
 * {@code POST {base}/responses?api-version={version}}, version {@code v1} unless the baseUrl's own
 * {@code api-version} query names another (e.g. {@code 2025-04-01-preview}); the model id is the
 * deployment name.
 *
 * @param base the normalized base URL, without query
 * @param apiVersion the api-version sent
 */
record AzureEndpoint(String base, String apiVersion) {
    static final String DEFAULT_API_VERSION = "v1";

    /** The path appended to {@link #base}. */
    String path() {
        return "/responses?api-version=" + URLEncoder.encode(apiVersion, StandardCharsets.UTF_8);
    }

    static AzureEndpoint of(String baseUrl) {
        String trimmed = baseUrl == null ? "" : baseUrl.trim();
        String version = DEFAULT_API_VERSION;
        int query = trimmed.indexOf('?');
        if (query >= 0) {
            for (String pair : trimmed.substring(query + 1).split("&")) {
                if (pair.startsWith("api-version=") && pair.length() > "api-version=".length()) {
                    version = java.net.URLDecoder.decode(pair.substring("api-version=".length()),
                            StandardCharsets.UTF_8);
                }
            }
            trimmed = trimmed.substring(0, query);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return new AzureEndpoint(normalize(trimmed), version);
    }

    private static String normalize(String base) {
        URI uri;
        try {
            uri = URI.create(base);
        } catch (IllegalArgumentException e) {
            return base; // RequestHeaders reports an invalid URL without quoting it
        }
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        boolean azureHost = host.endsWith(".openai.azure.com") || host.endsWith(".cognitiveservices.azure.com")
                || host.endsWith(".ai.azure.com");
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (azureHost && (path.isEmpty() || path.equals("/openai") || path.equals("/openai/v1/responses"))) {
            return uri.getScheme() + "://" + uri.getRawAuthority() + "/openai/v1";
        }
        return base;
    }
}
