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

/**
 * hasCredential for the ambient-credential clouds (google-vertex, amazon-bedrock): evident from the
 * environment and a file's existence, nothing more.
 */
class AmbientCredentialsTest {
    @TempDir
    Path dir;
    final Map<String, String> env = new HashMap<>();

    private boolean bedrock() {
        AuthStore auth = new AuthStore(Map.of(), new SecretResolver(env, new FakeScheduler(),
                SecretResolver.COMMAND_LIMIT_MS), new FakeScheduler());
        auth.setUserHome(dir.resolve("home").toString());
        return auth.hasCredential("amazon-bedrock");
    }

    @Test
    void bedrockCountsFromAnyEvidentAwsSourceButNotFromNothing() throws Exception {
        assertFalse(bedrock(), "no variable, no file: instance metadata alone is not evident");
        for (String name : List.of("AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID", "AWS_PROFILE",
                "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) {
            env.clear();
            env.put(name, "value-0123456789");
            assertTrue(bedrock(), name);
        }
        env.clear();
        Files.createDirectories(dir.resolve("home/.aws"));
        Files.writeString(dir.resolve("home/.aws/config"), "[default]\nregion = eu-west-1\n");
        assertTrue(bedrock(), "~/.aws/config");
        env.put("AWS_CONFIG_FILE", dir.resolve("elsewhere").toString());
        assertFalse(bedrock(), "AWS_CONFIG_FILE moves the file the SDK reads");
        Files.writeString(dir.resolve("creds"), "[default]\n");
        env.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("creds").toString());
        assertTrue(bedrock());
    }

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
