package dev.agentd.server.ai.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.auth.Retryable;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.ai.http.RequestHeaders;
import dev.agentd.server.runtime.GcloudFiles;
import dev.agentd.server.runtime.KnownSecrets;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The only class that names {@code com.google.auth} types: Application Default Credentials,
 * scoped to cloud-platform, refreshed when expired. Nothing refers to it until a Vertex request
 * without an API key is made, so a daemon that never calls Vertex loads no Google class
 * (VertexMockIT checks the class-load log).
 *
 * <p>Looked for in order: the {@code GOOGLE_APPLICATION_CREDENTIALS} file, gcloud's
 * {@code application_default_credentials.json}, then the library's own chain (App Engine, Cloud
 * Shell, the Compute Engine metadata server). The secrets of a credential file (a service
 * account's private key, a user's refresh token and client secret) and every access token are
 * registered with KnownSecrets before use.
 */
final class GoogleAuthSupport {
    static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    /** A credential file is a few kilobytes; past this it is not one. */
    static final int MAX_FILE_BYTES = 1 << 20;
    private static final List<String> SECRET_FIELDS = List.of("private_key", "refresh_token", "client_secret");
    /** One credential per source (a file as of its modification time): its token is reused until it expires. */
    private static final Map<String, Loaded> LOADED = new ConcurrentHashMap<>();

    private GoogleAuthSupport() {}

    /** @param userHome where gcloud's configuration is looked for */
    static AdcCredential load(UnaryOperator<String> env, String userHome) throws RequestHeaders.InvalidRequestException {
        String configured = env.apply("GOOGLE_APPLICATION_CREDENTIALS");
        if (configured != null && !configured.isBlank()) {
            return fromFile(configured.trim(), "GOOGLE_APPLICATION_CREDENTIALS");
        }
        Optional<Path> gcloud = GcloudFiles.adcFile(env, userHome);
        if (gcloud.isPresent() && Files.isRegularFile(gcloud.get())) {
            return fromFile(gcloud.get().toString(), "gcloud's application default credentials");
        }
        Loaded chain = LOADED.get("chain");
        if (chain != null) {
            return chain;
        }
        try {
            return LOADED.computeIfAbsent("chain", key -> new Loaded(scoped(uncheckedDefault()),
                    "the Application Default Credentials chain"));
        } catch (UncheckedIOException e) {
            throw new RequestHeaders.InvalidRequestException("No Google Cloud credentials for Vertex AI. Looked for: "
                    + "an API key (\"apiKey\" of provider google-vertex in models.json, auth.json, GOOGLE_CLOUD_API_KEY), "
                    + "GOOGLE_APPLICATION_CREDENTIALS (unset), "
                    + gcloud.map(path -> path + " (absent)").orElse("gcloud's application_default_credentials.json")
                    + ", and the Compute Engine metadata server (" + e.getCause().getClass().getSimpleName() + "). Run "
                    + "`gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a "
                    + "service-account key file.");
        }
    }

    private static AdcCredential fromFile(String path, String origin) throws RequestHeaders.InvalidRequestException {
        Path file;
        long modified;
        try {
            file = Path.of(path);
            modified = Files.getLastModifiedTime(file).toMillis();
        } catch (IOException | InvalidPathException e) {
            throw new RequestHeaders.InvalidRequestException("The Google credential file named by " + origin + " ("
                    + path + ") cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        String key = file.toAbsolutePath() + "@" + modified;
        Loaded known = LOADED.get(key);
        if (known != null) {
            return known;
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_FILE_BYTES + 1);
        } catch (IOException e) {
            throw new RequestHeaders.InvalidRequestException("The Google credential file named by " + origin + " ("
                    + path + ") cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new RequestHeaders.InvalidRequestException("The Google credential file " + path + " is over "
                    + MAX_FILE_BYTES + " bytes: not a credential file");
        }
        rememberSecrets(bytes);
        try {
            GoogleCredentials credentials = GoogleCredentials.fromStream(new ByteArrayInputStream(bytes));
            Loaded loaded = new Loaded(scoped(credentials), path);
            LOADED.put(key, loaded);
            return loaded;
        } catch (IOException | RuntimeException e) {
            // The library's message may quote the file; ours names only the file and the failure's kind.
            throw new RequestHeaders.InvalidRequestException("The Google credential file " + path + " ("
                    + origin + ") is not a credential file agentd can use (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The file's secrets are redacted wherever they might be echoed, before the library reads them. */
    private static void rememberSecrets(byte[] bytes) {
        try {
            JsonNode root = Json.mapper().readTree(bytes);
            if (root != null && root.isObject()) {
                for (String field : SECRET_FIELDS) {
                    JsonNode value = root.path(field);
                    if (value.isTextual()) {
                        KnownSecrets.add(value.textValue());
                    }
                }
            }
        } catch (IOException e) {
            // not JSON: the library rejects it next, and there is nothing to redact
        }
    }

    private static GoogleCredentials scoped(GoogleCredentials credentials) {
        return credentials.createScopedRequired() ? credentials.createScoped(List.of(SCOPE)) : credentials;
    }

    private static GoogleCredentials uncheckedDefault() {
        try {
            return GoogleCredentials.getApplicationDefault();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class UncheckedIOException extends RuntimeException {
        UncheckedIOException(IOException cause) {
            super(cause);
        }
    }

    /**
     * A failure the library deems retryable (the token endpoint unreachable or answering 5xx) reads
     * as a connection error, which recovery retries; any other is the credential's rejection.
     */
    static String tokenFailure(Exception e, String source) {
        String kind = e.getClass().getSimpleName();
        if (e instanceof Retryable retryable && retryable.isRetryable()) {
            return "Connection error: no Google access token for Vertex AI from " + source + " (" + kind + ")";
        }
        return "Google authentication failed for Vertex AI: the token endpoint refused the credentials from "
                + source + " (" + kind + ")";
    }

    private record Loaded(GoogleCredentials credentials, String source) implements AdcCredential {
        @Override
        public String project() {
            String quota = credentials.getQuotaProjectId();
            if (quota != null && !quota.isBlank()) {
                return quota;
            }
            String own = credentials.getProjectId();
            return own != null && !own.isBlank() ? own : null;
        }

        @Override
        public String accessToken() throws RequestHeaders.InvalidRequestException {
            AccessToken token;
            try {
                credentials.refreshIfExpired();
                token = credentials.getAccessToken();
            } catch (IOException | RuntimeException e) {
                // Never the library's message: a token endpoint's reply could be quoted in it.
                throw new RequestHeaders.InvalidRequestException(tokenFailure(e, source));
            }
            if (token == null || token.getTokenValue() == null || token.getTokenValue().isBlank()) {
                throw new RequestHeaders.InvalidRequestException("The Google credentials from " + source
                        + " gave no access token");
            }
            KnownSecrets.add(token.getTokenValue());
            return token.getTokenValue();
        }
    }
}
