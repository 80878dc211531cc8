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
 * For {@code amazon-bedrock}: a Bedrock API key, access keys, a named profile, web identity, a
 * container endpoint, or the shared credentials or config file. EC2 instance metadata alone is not
 * evident (it takes the network to know): such a host names its Bedrock rungs explicitly.
 */
final class AmbientCredentials {
    static final String VERTEX = "google-vertex";
    static final String BEDROCK = "amazon-bedrock";
    private static final String[] AWS_VARIABLES = {"AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID", "AWS_PROFILE",
        "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"};

    private AmbientCredentials() {}

    /** Whether {@code provider}'s credential is ambient (judged by {@link #evident}). */
    static boolean isAmbient(String provider) {
        return BEDROCK.equals(provider) || VERTEX.equals(provider);
    }

    /** What configures an ambient provider, for the message when none is. */
    static String howToConfigure(String provider) {
        String sources = BEDROCK.equals(provider)
                ? "set one of " + String.join(", ", AWS_VARIABLES) + ", or create ~/.aws/credentials or ~/.aws/config"
                : "set GOOGLE_CLOUD_API_KEY or GOOGLE_APPLICATION_CREDENTIALS, or run `gcloud auth "
                        + "application-default login` and set GOOGLE_CLOUD_PROJECT";
        return "No credentials configured for " + provider + ": " + sources + "; or add a provider '" + provider
                + "' to models.json to use the credential chain as it is (e.g. an instance's metadata server).";
    }

    /**
     * @param env a non-blank environment variable's value
     * @param userHome the user's home directory (gcloud's configuration lies under it)
     */
    static boolean evident(String provider, Function<String, Optional<String>> env, String userHome) {
        if (BEDROCK.equals(provider)) {
            return aws(env, userHome);
        }
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

    private static boolean aws(Function<String, Optional<String>> env, String userHome) {
        for (String name : AWS_VARIABLES) {
            if (env.apply(name).isPresent()) {
                return true;
            }
        }
        String home = userHome == null ? "" : userHome;
        return env.apply("AWS_SHARED_CREDENTIALS_FILE").orElse(home + "/.aws/credentials").transform(AmbientCredentials::isFile)
                || env.apply("AWS_CONFIG_FILE").orElse(home + "/.aws/config").transform(AmbientCredentials::isFile);
    }

    private static boolean isFile(String path) {
        try {
            return Files.isRegularFile(Path.of(path.trim()));
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
