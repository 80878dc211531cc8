package dev.agentd.server.recovery;

import dev.agentd.server.config.Settings;

/** The {@code retry} settings group (SPEC §2, §5). */
public record RetryConfig(boolean enabled, int maxRetries, long baseDelayMs, long maxRetryDelayMs) {

    public static final RetryConfig DEFAULTS = new RetryConfig(true, 3, 2000, 60_000);
    /** Upper bounds that keep {@code baseDelayMs * 2^(attempt-1)} far from overflow. */
    public static final int MAX_RETRIES_LIMIT = 100;
    public static final long MAX_DELAY_LIMIT = 24L * 60 * 60 * 1000;

    public static RetryConfig from(Settings settings) {
        return new RetryConfig(
                settings.bool("retry.enabled", DEFAULTS.enabled),
                (int) settings.integer("retry.maxRetries", DEFAULTS.maxRetries, 0, MAX_RETRIES_LIMIT),
                settings.integer("retry.baseDelayMs", DEFAULTS.baseDelayMs, 0, MAX_DELAY_LIMIT),
                settings.integer("retry.maxRetryDelayMs", DEFAULTS.maxRetryDelayMs, 0, MAX_DELAY_LIMIT));
    }

    /** {@code baseDelayMs * 2^(attempt-1)}, saturating instead of overflowing. */
    public long backoffMs(int attempt) {
        int shift = Math.max(0, attempt - 1);
        if (shift >= 62 || baseDelayMs > (Long.MAX_VALUE >> shift)) {
            return Long.MAX_VALUE;
        }
        return baseDelayMs << shift;
    }
}
