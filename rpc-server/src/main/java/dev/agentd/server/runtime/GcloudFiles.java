package dev.agentd.server.runtime;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where gcloud keeps the Application Default Credentials that {@code gcloud auth
 * application-default login} writes: the one rule both the credential check ({@code auth}) and the
 * Vertex provider ({@code ai.vertex}) read, so they look in the same place.
 */
public final class GcloudFiles {
    public static final String ADC_FILE = "application_default_credentials.json";

    private GcloudFiles() {}

    /**
     * Under {@code CLOUDSDK_CONFIG} when set, else {@code %APPDATA%\gcloud} on Windows, else
     * {@code ~/.config/gcloud}; empty when none can be named.
     *
     * @param env an environment variable's value, null when unset
     */
    public static Optional<Path> adcFile(UnaryOperator<String> env, String userHome) {
        try {
            String config = env.apply("CLOUDSDK_CONFIG");
            if (config != null && !config.isBlank()) {
                return Optional.of(Path.of(config.trim(), ADC_FILE));
            }
            String appData = env.apply("APPDATA");
            if (appData != null && !appData.isBlank() && System.getProperty("os.name", "").startsWith("Windows")) {
                return Optional.of(Path.of(appData.trim(), "gcloud", ADC_FILE));
            }
            return userHome == null || userHome.isBlank() ? Optional.empty()
                    : Optional.of(Path.of(userHome, ".config", "gcloud", ADC_FILE));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}
