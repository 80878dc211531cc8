package dev.agentd.server.auth;

/**
 * How long a failed credential command's failure is kept before the next use runs it again: 5 s
 * after the first failure, doubling with each failure in a row, at most 5 min. Short enough that a
 * dismissed unlock dialog costs one prompt, long enough that a broken command is not run for every
 * request of a retry loop.
 */
final class CommandBackoff {
    static final long FIRST_MS = 5_000;
    static final long MAX_MS = 300_000;

    private CommandBackoff() {}

    /** The pause after {@code failures} (≥ 1) failed runs in a row. */
    static long afterFailures(int failures) {
        int doublings = Math.max(0, Math.min(failures - 1, 20));
        return Math.min(FIRST_MS << doublings, MAX_MS);
    }
}
