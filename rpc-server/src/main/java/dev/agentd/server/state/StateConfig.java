package dev.agentd.server.state;

import dev.agentd.server.config.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which store holds the shared state, decided from the settings' {@code state} group and the
 * environment (pure: {@code cli} passes the environment in). {@code AGENTD_STATE_URL} overrides
 * {@code state.url} and selects the Redis store on its own, so a fleet can be configured without
 * touching settings files. A configuration that cannot work (an unknown store, {@code redis}
 * without a URL, a malformed URL) falls back to the file store with a warning: the daemon still
 * starts. {@link #toString()} and every warning are free of the URL's password.
 *
 * @param kind the store to open
 * @param redis where Redis is, present iff {@code kind} is {@link Kind#REDIS}
 * @param keyPrefix what every Redis key starts with
 * @param connectTimeoutMs TCP connect (and TLS handshake) limit per connection
 * @param commandTimeoutMs the limit on one store operation's round trips
 * @param warnings configuration problems for stderr, secret-free
 */
public record StateConfig(Kind kind, Optional<RedisEndpoint> redis, String keyPrefix, long connectTimeoutMs,
        long commandTimeoutMs, List<String> warnings) {
    public enum Kind { FILE, MEMORY, REDIS }

    public static final String ENV_URL = "AGENTD_STATE_URL";
    public static final String DEFAULT_PREFIX = "agentd:";
    public static final long DEFAULT_TIMEOUT_MS = 200;
    private static final int MAX_PREFIX_CHARS = 64;

    public StateConfig {
        redis = redis == null ? Optional.empty() : redis;
        warnings = List.copyOf(warnings);
    }

    public static StateConfig from(Settings settings, Map<String, String> env) {
        List<String> warnings = new ArrayList<>();
        String prefix = settings.text("state.keyPrefix").orElse(DEFAULT_PREFIX);
        if (prefix.length() > MAX_PREFIX_CHARS || !printable(prefix)) {
            warnings.add("settings: 'state.keyPrefix' should be at most " + MAX_PREFIX_CHARS
                    + " printable characters without spaces; using '" + DEFAULT_PREFIX + "'");
            prefix = DEFAULT_PREFIX;
        }
        long connect = settings.integer("state.connectTimeoutMs", DEFAULT_TIMEOUT_MS, 1, 10_000);
        long command = settings.integer("state.commandTimeoutMs", DEFAULT_TIMEOUT_MS, 1, 10_000);

        String envUrl = env.get(ENV_URL);
        Optional<String> url;
        String source;
        if (envUrl != null && !envUrl.isBlank()) {
            url = Optional.of(envUrl);
            source = ENV_URL;
        } else {
            String store = settings.text("state.store").orElse("file");
            if (store.equals("file") || store.equals("memory")) {
                return new StateConfig(store.equals("file") ? Kind.FILE : Kind.MEMORY, Optional.empty(), prefix,
                        connect, command, warnings);
            }
            if (!store.equals("redis")) {
                warnings.add("settings: 'state.store' should be \"file\", \"memory\" or \"redis\"; using the file store");
                return new StateConfig(Kind.FILE, Optional.empty(), prefix, connect, command, warnings);
            }
            url = settings.text("state.url");
            source = "state.url";
            if (url.isEmpty()) {
                warnings.add("settings: 'state.store' is \"redis\" but neither 'state.url' nor " + ENV_URL
                        + " is set; using the file store");
                return new StateConfig(Kind.FILE, Optional.empty(), prefix, connect, command, warnings);
            }
        }
        try {
            RedisEndpoint endpoint = RedisEndpoint.parse(url.get());
            return new StateConfig(Kind.REDIS, Optional.of(endpoint), prefix, connect, command, warnings);
        } catch (IllegalArgumentException e) {
            warnings.add(source + ": " + e.getMessage() + "; using the file store");
            return new StateConfig(Kind.FILE, Optional.empty(), prefix, connect, command, warnings);
        }
    }

    /** The configuration as one line for logs: the Redis URL appears redacted. */
    public String describe() {
        return kind == Kind.FILE ? "file store"
                : "redis store at " + redis.map(RedisEndpoint::redacted).orElse("?") + ", key prefix '" + keyPrefix
                        + "'";
    }

    @Override
    public String toString() {
        return describe();
    }

    private static boolean printable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c <= ' ' || c == 0x7f) {
                return false;
            }
        }
        return true;
    }
}
