package dev.agentd.server.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.testing.FakeScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** hasCredential("google-vertex"): evident from the environment and one file's existence, nothing more. */
class AmbientCredentialsTest {
    @TempDir
    Path dir;
    final Map<String, String> env = new HashMap<>();

    private boolean vertex() {
        AuthStore auth = new AuthStore(Map.of(), new SecretResolver(env, new FakeScheduler(),
                SecretResolver.COMMAND_LIMIT_MS), new FakeScheduler());
        auth.setUserHome(dir.resolve("home").toString());
        return auth.hasCredential("google-vertex");
    }

    @Test
    void nothingConfiguredIsNoCredential() {
        assertFalse(vertex());
        env.put("GOOGLE_CLOUD_PROJECT", "p");
        assertFalse(vertex(), "a project alone is no credential");
    }

    @Test
    void anApiKeyInTheEnvironmentIsOne() {
        env.put("GOOGLE_CLOUD_API_KEY", "AQ.vertex-key-0123456789");
        assertTrue(vertex());
    }

    @Test
    void aCredentialFileNamedByGoogleApplicationCredentialsIsOneWhenItExists() throws Exception {
        env.put("GOOGLE_APPLICATION_CREDENTIALS", dir.resolve("sa.json").toString());
        assertFalse(vertex(), "named but absent");
        Files.writeString(dir.resolve("sa.json"), "{}");
        assertTrue(vertex());
    }

    @Test
    void gcloudsFileCountsTogetherWithAProject() throws Exception {
        Path gcloud = Files.createDirectories(dir.resolve("home/.config/gcloud"));
        Files.writeString(gcloud.resolve("application_default_credentials.json"), "{}");
        assertFalse(vertex(), "gcloud's file without a project");
        env.put("GCLOUD_PROJECT", "p");
        assertTrue(vertex());
        env.remove("GCLOUD_PROJECT");
        env.put("CLOUDSDK_CONFIG", dir.resolve("elsewhere").toString());
        env.put("GOOGLE_CLOUD_PROJECT", "p");
        assertFalse(vertex(), "CLOUDSDK_CONFIG moves gcloud's file");
    }

    @Test
    void otherProvidersAreNotJudgedByGooglesFiles() throws Exception {
        Files.writeString(dir.resolve("sa.json"), "{}");
        env.put("GOOGLE_APPLICATION_CREDENTIALS", dir.resolve("sa.json").toString());
        AuthStore auth = new AuthStore(Map.of(), new SecretResolver(env, new FakeScheduler(),
                SecretResolver.COMMAND_LIMIT_MS), new FakeScheduler());
        for (String provider : List.of("google", "anthropic", "amazon-bedrock")) {
            assertFalse(auth.hasCredential(provider), provider);
        }
    }
}
