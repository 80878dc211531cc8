package dev.agentd.server.recovery;

import dev.agentd.server.config.Settings;

/**
 * The {@code retry} settings group (SPEC §2, §5). {@code maxRetryDelayMs} is the longest server
 * hint accepted as a wait; {@code maxAgentDelayMs} (pi 1.x's name) caps the backoff, which never
 * exceeds either.
 */
public record RetryConfig(boolean enabled, int maxRetries, long baseDelayMs, long maxRetryDelayMs,
        long maxAgentDelayMs) {

    private static final long DEFAULT_AGENT_DELAY_MS = 60_000;
    public static final RetryConfig DEFAULTS = new RetryConfig(true, 3, 2000, 60_000, DEFAULT_AGENT_DELAY_MS);
    /** Upper bounds of the settings (a day, a hundred attempts). */
    public static final int MAX_RETRIES_LIMIT = 100;
    public static final long MAX_DELAY_LIMIT = 24L * 60 * 60 * 1000;

    /** Settings with the default backoff cap of pi 1.x ({@code maxAgentDelayMs} 60 s). */
    public RetryConfig(boolean enabled, int maxRetries, long baseDelayMs, long maxRetryDelayMs) {
        this(enabled, maxRetries, baseDelayMs, maxRetryDelayMs, DEFAULT_AGENT_DELAY_MS);
    }

    public static RetryConfig from(Settings settings) {
        return new RetryConfig(
                settings.bool("retry.enabled", DEFAULTS.enabled),
                (int) settings.integer("retry.maxRetries", DEFAULTS.maxRetries, 0, MAX_RETRIES_LIMIT),
                settings.integer("retry.baseDelayMs", DEFAULTS.baseDelayMs, 0, MAX_DELAY_LIMIT),
                settings.integer("retry.maxRetryDelayMs", DEFAULTS.maxRetryDelayMs, 0, MAX_DELAY_LIMIT),
                settings.integer("retry.maxAgentDelayMs", DEFAULTS.maxAgentDelayMs, 0, MAX_DELAY_LIMIT));
    }

    /**
     * {@code baseDelayMs * 2^(attempt-1)}, capped at {@code maxAgentDelayMs} and at
     * {@code maxRetryDelayMs}: the daemon never announces a sleep longer than it would accept from a
     * server hint (SPEC §5.5). Computed without overflow for any attempt; a base of 0 stays 0.
     */
    public long backoffMs(int attempt) {
        long base = Math.max(0, baseDelayMs);
        long cap = Math.max(0, Math.min(maxRetryDelayMs, maxAgentDelayMs));
        int shift = Math.max(0, attempt - 1);
        if (base == 0) {
            return 0;
        }
        // base << shift > cap  ⇔  base > cap >> shift (Java masks shift counts of 64 and more, hence the guard)
        if (shift >= Long.SIZE - 1 || base > (cap >> shift)) {
            return cap;
        }
        return base << shift;
    }
}
