package dev.agentd.server.recovery;

import dev.agentd.server.config.Settings;

/**
 * The {@code retry} settings group (SPEC §2, §5). {@code maxRetryDelayMs} is the longest server
 * hint accepted as a wait; {@code maxAgentDelayMs} (pi 1.x's name) caps the backoff, which never
 * exceeds either.
 */
public record RetryConfig(boolean enabled, int maxRetries, long baseDelayMs, long maxRetryDelayMs,
        long maxAgentDelayMs, double jitterRatio) {

    private static final long DEFAULT_AGENT_DELAY_MS = 60_000;
    /** {@code retry.jitterRatio}'s default: every wait gets up to 10 % more, never less (issue 27). */
    public static final double DEFAULT_JITTER_RATIO = 0.1;
    public static final RetryConfig DEFAULTS = new RetryConfig(true, 3, 2000, 60_000, DEFAULT_AGENT_DELAY_MS,
            DEFAULT_JITTER_RATIO);

    /** Settings without jitter: what code states exactly (tests, fixed configurations). */
    public RetryConfig(boolean enabled, int maxRetries, long baseDelayMs, long maxRetryDelayMs, long maxAgentDelayMs) {
        this(enabled, maxRetries, baseDelayMs, maxRetryDelayMs, maxAgentDelayMs, 0);
    }
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
                settings.integer("retry.maxAgentDelayMs", DEFAULTS.maxAgentDelayMs, 0, MAX_DELAY_LIMIT),
                settings.decimal("retry.jitterRatio", DEFAULT_JITTER_RATIO, 0, 1));
    }

    /**
     * {@code delayMs} plus its jitter: {@code floor(delayMs · jitterRatio · fraction)} more, never
     * less, so sessions that failed together do not come back together and no wait is shorter than
     * a server's hint. {@code fraction} in [0, 1) is drawn by the caller (the decision stays pure).
     */
    public long jittered(long delayMs, double fraction) {
        if (delayMs <= 0 || jitterRatio <= 0 || fraction <= 0) {
            return Math.max(0, delayMs);
        }
        double extra = Math.floor(delayMs * Math.min(1, jitterRatio) * Math.min(fraction, 1));
        return extra >= Long.MAX_VALUE - delayMs ? Long.MAX_VALUE : delayMs + (long) extra;
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
