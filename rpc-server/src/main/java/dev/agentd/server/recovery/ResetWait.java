package dev.agentd.server.recovery;

import dev.agentd.server.config.Settings;

/**
 * Resume at the window reset (issue 27 point 1, FALLBACK §11): when a usage, quota or long
 * rate limit names its reset and nothing else can serve, the turn waits for the reset instead of
 * failing. Pure: the setting and the rule of when a hint qualifies; {@link RecoveryPolicy} decides.
 */
public final class ResetWait {
    /** The settings path; 0 turns resuming off. */
    public static final String PATH = "retry.resumeAtResetMaxMs";
    /** Six hours: a plan's usage window; a monthly limit is not waited for. */
    public static final long DEFAULT_MAX_MS = 6L * 60 * 60 * 1000;
    /** The longest accepted setting (a week). */
    public static final long MAX_LIMIT_MS = 7L * 24 * 60 * 60 * 1000;

    /** Reasons carried by {@code retry_resume_scheduled}. */
    public static final String USAGE_LIMIT = "usage_limit";
    public static final String RATE_LIMITED = "rate_limited";

    private ResetWait() {}

    public static long maxMs(Settings settings) {
        return settings.integer(PATH, DEFAULT_MAX_MS, 0, MAX_LIMIT_MS);
    }

    /**
     * True when a server hint of {@code hintMs} (null: none) is a reset worth waiting for: known,
     * positive, and within {@code maxMs} (0: never).
     */
    public static boolean qualifies(Long hintMs, long maxMs) {
        return maxMs > 0 && hintMs != null && hintMs > 0 && hintMs <= maxMs;
    }
}
