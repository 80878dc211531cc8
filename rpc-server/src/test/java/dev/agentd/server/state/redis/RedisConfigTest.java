package dev.agentd.server.state.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentd.server.config.Settings;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.state.StateConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store choice ({@link StateConfig}) and the Redis settings it carries ({@link RedisConfig}). */
class RedisConfigTest {
    private static final String SECRET = "pa:ss@w0rd";

    private static Settings settings(Map<String, Object> values) {
        SettingsStore store = SettingsStore.inMemory();
        values.forEach((path, value) -> store.setForProcess(path,
                value instanceof Integer i ? IntNode.valueOf(i) : TextNode.valueOf((String) value)));
        return store.current();
    }

    /** The Redis configuration {@code config} carries, with its warnings added to {@code warnings}. */
    private static Optional<RedisConfig> redis(StateConfig config, List<String> warnings) {
        return config.redis().flatMap(raw -> RedisConfig.from(raw, warnings));
    }

    private static RedisConfig redis(StateConfig config) {
        List<String> warnings = new ArrayList<>();
        RedisConfig redis = redis(config, warnings).orElseThrow();
        assertEquals(List.of(), warnings);
        return redis;
    }

    @Test
    void theStateKeysAreKnownToTheSettingsFileAndATypoIsWarned(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("settings.json"), "{\"state\":{\"store\":\"redis\","
                + "\"url\":\"redis://h:1/0\",\"keyPrefix\":\"a:\",\"connectTimeoutMs\":100,"
                + "\"commandTimeoutMs\":100,\"keyprefix\":\"b:\"}}");
        SettingsStore store = new SettingsStore(file, null);
        store.reload();
        assertEquals(List.of("settings file " + file + ": unknown key 'state.keyprefix' (did you mean "
                + "'state.keyPrefix'?); ignored"), store.warnings());
        assertEquals(StateConfig.Kind.REDIS, StateConfig.from(store.current(), Map.of()).kind());
    }

    @Test
    void theFileStoreIsTheDefaultAndNeedsNothing() {
        StateConfig config = StateConfig.from(settings(Map.of()), Map.of());
        assertEquals(StateConfig.Kind.FILE, config.kind());
        assertEquals(Optional.empty(), config.redis());
        assertTrue(config.warnings().isEmpty());
        RedisConfig defaults = redis(StateConfig.from(settings(Map.of()), Map.of("AGENTD_STATE_URL", "redis://h")));
        assertEquals("agentd:", defaults.keyPrefix());
        assertEquals(200, defaults.connectTimeoutMs());
        assertEquals(200, defaults.commandTimeoutMs());
    }

    @Test
    void settingsSelectRedisWithItsUrlPrefixAndTimeouts() {
        StateConfig config = StateConfig.from(settings(Map.of("state.store", "redis", "state.url",
                "redis://cache.internal:6380/2", "state.keyPrefix", "team-a:", "state.commandTimeoutMs", 50)),
                Map.of());
        assertEquals(StateConfig.Kind.REDIS, config.kind());
        assertEquals(new RedisEndpoint("cache.internal", 6380, 2, Optional.empty(), Optional.empty(), false),
                redis(config).endpoint());
        assertEquals("team-a:", redis(config).keyPrefix());
        assertEquals(50, redis(config).commandTimeoutMs());
    }

    @Test
    void theEnvironmentVariableOverridesTheUrlAndSelectsRedisOnItsOwn() {
        StateConfig config = StateConfig.from(settings(Map.of("state.url", "redis://other:1/0")),
                Map.of("AGENTD_STATE_URL", "rediss://u:" + "p%40ss" + "@redis.fleet.example:6390/1"));
        RedisEndpoint endpoint = redis(config).endpoint();
        assertEquals(StateConfig.Kind.REDIS, config.kind());
        assertEquals("redis.fleet.example", endpoint.host());
        assertEquals(6390, endpoint.port());
        assertEquals(1, endpoint.db());
        assertTrue(endpoint.tls());
        assertEquals(Optional.of("u"), endpoint.user());
        assertEquals(Optional.of("p@ss"), endpoint.password());
    }

    @Test
    void configurationsThatCannotWorkFallBackToTheFileStoreWithAWarning() {
        StateConfig unknown = StateConfig.from(settings(Map.of("state.store", "etcd")), Map.of());
        assertEquals(StateConfig.Kind.FILE, unknown.kind());
        assertTrue(unknown.warnings().get(0).contains("'state.store' should be"), unknown.warnings().toString());

        StateConfig noUrl = StateConfig.from(settings(Map.of("state.store", "redis")), Map.of());
        assertEquals(StateConfig.Kind.FILE, noUrl.kind());
        assertTrue(noUrl.warnings().get(0).contains("AGENTD_STATE_URL"), noUrl.warnings().toString());

        // The key prefix matters to the Redis store only, so only a Redis configuration checks it.
        List<String> warnings = new ArrayList<>();
        RedisConfig badPrefix = redis(StateConfig.from(settings(Map.of("state.keyPrefix", "has space")),
                Map.of("AGENTD_STATE_URL", "redis://h")), warnings).orElseThrow();
        assertEquals("agentd:", badPrefix.keyPrefix());
        assertEquals(1, warnings.size());
    }

    @Test
    void aMalformedUrlIsReportedWithoutItsPassword() {
        for (String url : new String[] {"http://u:" + SECRET + "@host:6379/0", "redis://u:" + SECRET + "@host:99999/0",
                "redis://u:" + SECRET + "@/0", "redis://u:" + SECRET + "@host:6379/x", "redis://u:" + SECRET
                        + "@host/0?timeout=1", "redis://u:pa%zz@host"}) {
            StateConfig config = StateConfig.from(settings(Map.of()), Map.of("AGENTD_STATE_URL", url));
            List<String> warnings = new ArrayList<>(config.warnings());
            assertEquals(Optional.empty(), redis(config, warnings), url); // the store factory opens the file store
            assertFalse(config.toString().contains("w0rd"), url);
            assertEquals(1, warnings.size(), url);
            String warning = warnings.get(0);
            assertTrue(warning.startsWith("AGENTD_STATE_URL: "), warning);
            assertFalse(warning.contains("pa:ss") || warning.contains("w0rd") || warning.contains("pa%zz"), warning);
        }
    }

    @Test
    void thePasswordNeverAppearsInToStringOrDescriptions() {
        StateConfig config = StateConfig.from(settings(Map.of()),
                Map.of("AGENTD_STATE_URL", "redis://agent:" + SECRET.replace("@", "%40") + "@h:7000/3"));
        RedisEndpoint endpoint = redis(config).endpoint();
        assertEquals(SECRET, endpoint.password().orElseThrow());
        assertEquals("redis://agent:***@h:7000/3", endpoint.redacted());
        for (String text : new String[] {endpoint.toString(), config.toString(), config.redis().toString(),
                redis(config).toString(), redis(config).describe()}) {
            assertFalse(text.contains("w0rd"), text);
        }
    }

    @Test
    void endpointsParseTheirShapes() {
        assertEquals(new RedisEndpoint("localhost", 6379, 0, Optional.empty(), Optional.empty(), false),
                RedisEndpoint.parse("redis://localhost"));
        assertEquals(new RedisEndpoint("::1", 6379, 0, Optional.empty(), Optional.of("pw"), false),
                RedisEndpoint.parse("redis://:pw@[::1]:6379"));
        assertEquals("redis://:***@[::1]:6379/0", RedisEndpoint.parse("redis://:pw@[::1]:6379").redacted());
        // A user info without a colon is the password alone (AUTH password).
        assertEquals(Optional.of("only"), RedisEndpoint.parse("redis://only@h/0").password());
        assertEquals(Optional.empty(), RedisEndpoint.parse("redis://only@h/0").user());
        assertThrows(IllegalArgumentException.class, () -> RedisEndpoint.parse("redis://h:0"));
        assertThrows(IllegalArgumentException.class, () -> RedisEndpoint.parse("redis://h o/0"));
        assertThrows(IllegalArgumentException.class, () -> RedisEndpoint.parse("redis://" + "a".repeat(5000)));
    }
}
