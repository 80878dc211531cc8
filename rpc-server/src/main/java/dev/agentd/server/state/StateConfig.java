package dev.agentd.server.state;

import dev.agentd.server.config.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Which store holds the shared state, decided from the settings' {@code state} group and the
 * environment (pure: {@code cli} passes the environment in). {@code AGENTD_STATE_URL} overrides
 * {@code state.url} and selects the Redis store on its own, so a fleet can be configured without
 * touching settings files. A configuration that cannot work (an unknown store, {@code redis}
 * without a URL) falls back to the file store with a warning: the daemon still starts. The Redis
 * settings are carried as written; {@code state.redis.RedisConfig} parses and checks them (and
 * falls back to the file store in turn when the URL is malformed).
 *
 * @param kind the store to open
 * @param redis the Redis settings as written, present iff {@code kind} is {@link Kind#REDIS}
 * @param warnings configuration problems for stderr, secret-free
 */
public record StateConfig(Kind kind, Optional<RedisSettings> redis, List<String> warnings) {
    public enum Kind { FILE, MEMORY, REDIS }

    public static final String ENV_URL = "AGENTD_STATE_URL";
    public static final long DEFAULT_TIMEOUT_MS = 200;

    /**
     * The {@code state} group's Redis settings, unparsed.
     *
     * @param url the URL (it may hold a password: never print it)
     * @param urlSource where the URL came from ({@code AGENTD_STATE_URL} or {@code state.url}), for warnings
     * @param keyPrefix {@code state.keyPrefix}, if set
     * @param connectTimeoutMs TCP connect (and TLS handshake) limit per connection
     * @param commandTimeoutMs the limit on one store operation's round trips
     */
    public record RedisSettings(String url, String urlSource, Optional<String> keyPrefix, long connectTimeoutMs,
            long commandTimeoutMs) {
        @Override
        public String toString() {
            return "RedisSettings[url from " + urlSource + ", keyPrefix=" + keyPrefix + ", connectTimeoutMs="
                    + connectTimeoutMs + ", commandTimeoutMs=" + commandTimeoutMs + "]";
        }
    }

    public StateConfig {
        redis = redis == null ? Optional.empty() : redis;
        warnings = List.copyOf(warnings);
    }

    public static StateConfig from(Settings settings, Map<String, String> env) {
        List<String> warnings = new ArrayList<>();
        String envUrl = env.get(ENV_URL);
        Optional<String> url;
        String source;
        if (envUrl != null && !envUrl.isBlank()) {
            url = Optional.of(envUrl);
            source = ENV_URL;
        } else {
            String store = settings.text("state.store").orElse("file");
            if (store.equals("file") || store.equals("memory")) {
                return new StateConfig(store.equals("file") ? Kind.FILE : Kind.MEMORY, Optional.empty(), warnings);
            }
            if (!store.equals("redis")) {
                warnings.add("settings: 'state.store' should be \"file\", \"memory\" or \"redis\"; using the file store");
                return new StateConfig(Kind.FILE, Optional.empty(), warnings);
            }
            url = settings.text("state.url");
            source = "state.url";
            if (url.isEmpty()) {
                warnings.add("settings: 'state.store' is \"redis\" but neither 'state.url' nor " + ENV_URL
                        + " is set; using the file store");
                return new StateConfig(Kind.FILE, Optional.empty(), warnings);
            }
        }
        RedisSettings redis = new RedisSettings(url.get(), source, settings.text("state.keyPrefix"),
                settings.integer("state.connectTimeoutMs", DEFAULT_TIMEOUT_MS, 1, 10_000),
                settings.integer("state.commandTimeoutMs", DEFAULT_TIMEOUT_MS, 1, 10_000));
        return new StateConfig(Kind.REDIS, Optional.of(redis), warnings);
    }

    @Override
    public String toString() {
        return kind == Kind.REDIS ? "redis store (URL from " + redis.map(RedisSettings::urlSource).orElse("?") + ")"
                : kind.name().toLowerCase(Locale.ROOT) + " store";
    }
}
