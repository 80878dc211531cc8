package dev.agentd.server.state.redis;

import dev.agentd.server.state.StateConfig;
import java.util.List;
import java.util.Optional;

/**
 * Everything the Redis store needs, parsed and checked from the {@code state} group's Redis
 * settings ({@link StateConfig.RedisSettings}). A malformed URL makes no Redis store: the caller
 * falls back to the file store, and the warning says so. A bad key prefix is replaced by the
 * default. {@link #toString()} and every warning are free of the URL's password.
 *
 * @param endpoint where Redis is
 * @param keyPrefix what every Redis key starts with
 * @param connectTimeoutMs TCP connect (and TLS handshake) limit per connection
 * @param commandTimeoutMs the limit on one store operation's round trips
 */
public record RedisConfig(RedisEndpoint endpoint, String keyPrefix, long connectTimeoutMs, long commandTimeoutMs) {
    public static final String DEFAULT_PREFIX = "agentd:";
    private static final int MAX_PREFIX_CHARS = 64;

    /**
     * The Redis store {@code settings} describe, or empty when its URL is malformed.
     *
     * @param warnings receives the configuration problems, secret-free
     */
    public static Optional<RedisConfig> from(StateConfig.RedisSettings settings, List<String> warnings) {
        String prefix = settings.keyPrefix().orElse(DEFAULT_PREFIX);
        if (prefix.length() > MAX_PREFIX_CHARS || !printable(prefix)) {
            warnings.add("settings: 'state.keyPrefix' should be at most " + MAX_PREFIX_CHARS
                    + " printable characters without spaces; using '" + DEFAULT_PREFIX + "'");
            prefix = DEFAULT_PREFIX;
        }
        try {
            RedisEndpoint endpoint = RedisEndpoint.parse(settings.url());
            return Optional.of(new RedisConfig(endpoint, prefix, settings.connectTimeoutMs(),
                    settings.commandTimeoutMs()));
        } catch (IllegalArgumentException e) {
            warnings.add(settings.urlSource() + ": " + e.getMessage() + "; using the file store");
            return Optional.empty();
        }
    }

    /** The configuration as one line for logs: the Redis URL appears redacted. */
    public String describe() {
        return "redis store at " + endpoint.redacted() + ", key prefix '" + keyPrefix + "'";
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
