package dev.agentd.server.auth;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import dev.agentd.server.runtime.GcloudFiles;

/**
 * Whether a provider whose credential comes from the environment has one configured, judged
 * from the environment and one file's existence only: no network, no cloud library loaded (the
 * fallback scan asks this on the stdin reader). For {@code google-vertex}: the
 * {@code GOOGLE_APPLICATION_CREDENTIALS} file, or gcloud's {@code application_default_credentials.json}
 * together with a project ({@code GOOGLE_CLOUD_PROJECT} or {@code GCLOUD_PROJECT}). Its API key
 * ({@code GOOGLE_CLOUD_API_KEY}) is an ordinary provider variable (runtime.ProviderVariables).
 */
final class AmbientCredentials {
    static final String VERTEX = "google-vertex";

    private AmbientCredentials() {}

    /**
     * @param env a non-blank environment variable's value
     * @param userHome the user's home directory (gcloud's configuration lies under it)
     */
    static boolean evident(String provider, Function<String, Optional<String>> env, String userHome) {
        if (!VERTEX.equals(provider)) {
            return false;
        }
        if (env.apply("GOOGLE_APPLICATION_CREDENTIALS").map(AmbientCredentials::isFile).orElse(false)) {
            return true;
        }
        boolean project = env.apply("GOOGLE_CLOUD_PROJECT").or(() -> env.apply("GCLOUD_PROJECT")).isPresent();
        return project && GcloudFiles.adcFile(name -> env.apply(name).orElse(null), userHome).map(Files::isRegularFile)
                .orElse(false);
    }

    private static boolean isFile(String path) {
        try {
            return Files.isRegularFile(Path.of(path.trim()));
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
