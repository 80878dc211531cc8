package dev.agentd.server.fallback;

import java.util.random.RandomGenerator;

/**
 * Why a selector cools down, and for how long (the fallback design §5.4). The session controller
 * maps error classes to causes; a Retry-After hint replaces these durations.
 */
public enum CooldownCause {
    /** Billing, quota or usage limit: the account will not recover soon. */
    USAGE_BILLING_QUOTA(30 * 60_000L, 0),
    RATE_LIMIT(30_000L, 0),
    /** Overloaded or out of capacity; jittered so sessions do not return in lockstep. */
    OVERLOADED(45_000L, 30_000L),
    SERVER_5XX(20_000L, 0),
    /** Timeouts, resets, refused or dropped connections. */
    TRANSPORT(60_000L, 0),
    OTHER(5 * 60_000L, 0);

    private final long baseMs;
    private final long jitterMs;

    CooldownCause(long baseMs, long jitterMs) {
        this.baseMs = baseMs;
        this.jitterMs = jitterMs;
    }

    /** The cooldown without a hint: the base plus {@code round(u · jitter)}, u uniform in [0, 1). */
    public long durationMs(RandomGenerator random) {
        return jitterMs == 0 ? baseMs : baseMs + Math.round(random.nextDouble() * jitterMs);
    }
}
