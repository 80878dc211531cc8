package dev.agentd.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** N7: agentd's own secret and URLs with user-info never reach a tool's environment. */
class ToolEnvironmentTest {
    @Test
    void theStateUrlAndEveryValueWithAUrlPasswordAreStripped() {
        Map<String, String> env = ToolEnvironment.forTools(Map.of(
                "AGENTD_STATE_URL", "redis://:s3cret@127.0.0.1:1/0",
                "https_proxy", "http://me:proxy-pw@proxy.example:3128",
                "MIRRORS", "https://a.example https://token@b.example/repo.git",
                "DATABASE_URL", "postgres://app:db-pw@db/app",
                "HOMEPAGE", "https://example.com/~me?mail=me@example.com",
                "PATH", "/usr/bin:/bin",
                "EMAIL", "me@example.com"));
        assertEquals(Map.of("HOMEPAGE", "https://example.com/~me?mail=me@example.com", "PATH", "/usr/bin:/bin",
                "EMAIL", "me@example.com"), env);
    }

    @Test
    void theStateUrlGoesEvenWithoutAPasswordAndTheAllowListStillWins() {
        assertEquals(Map.of(), ToolEnvironment.forTools(Map.of("AGENTD_STATE_URL", "redis://127.0.0.1:6379/0")));
        Map<String, String> allowed = Map.of("https_proxy", "http://me:proxy-pw@proxy.example:3128",
                ToolEnvironment.ALLOW_VARIABLE, "https_proxy");
        assertEquals(allowed, ToolEnvironment.forTools(allowed));
    }

    @Test
    void awsCredentialsTheBedrockProviderReadsAreKeptFromTools() {
        assertEquals(Map.of("AWS_REGION", "us-west-2", "AWS_ACCESS_KEY_ID", "AKIAEXAMPLE"), ToolEnvironment.forTools(Map.of(
                "AWS_REGION", "us-west-2", "AWS_ACCESS_KEY_ID", "AKIAEXAMPLE",
                "AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG", "AWS_SESSION_TOKEN", "IQoJb3JpZ2luX2Vj",
                "AWS_BEARER_TOKEN_BEDROCK", "ABSKQmVkcm9jaw")));
    }
}
