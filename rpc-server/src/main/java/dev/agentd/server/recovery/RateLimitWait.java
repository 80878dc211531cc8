package dev.agentd.server.recovery;

/**
 * The in-turn 429 wait state of one retry chain (FALLBACK §4 tier 1): whether a hinted wait
 * happened, the last hint's deadline on the monotonic clock, and the hinted wait spent so far. Immutable; the session keeps the latest one with the chain and drops it whenever the chain
 * ends or moves to another model.
 *
 * @param phase {@code IDLE} before the first hinted wait, {@code DONE} after it
 * @param deadlineMs when the last hint's window closes (monotonic); meaningful after {@code IDLE}
 * @param cumulativeMs the hinted wait announced so far in this chain
 */
public record RateLimitWait(Phase phase, long deadlineMs, long cumulativeMs) {
    public static final RateLimitWait NONE = new RateLimitWait(Phase.IDLE, 0, 0);

    public enum Phase { IDLE, DONE }

    public RateLimitWait {
        phase = phase == null ? Phase.IDLE : phase;
    }
}
