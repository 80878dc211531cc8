package dev.agentd.server.recovery;

/**
 * The 429 arithmetic of FALLBACK §4, pure (no clock: {@code nowMs} is passed in). A rate-limited
 * reply's server hint picks a tier; tier 1 stays on the model and waits the whole hint each time
 * (never less: a retry inside the window only earns another 429), until the hinted waits pass the cap.
 * {@link RecoveryPolicy} routes on the answers; nothing here decides whether a fallback exists.
 */
public final class HintTiers {

    /** How a hinted 429 is answered (FALLBACK §4). */
    public enum Tier {
        /** No hint: switch at once when a rung exists, else exponential same-model retries. */
        NO_HINT,
        /** {@code hint <= hintedWaitCapMs}: stay and wait (the sequence of {@link #inTurn}). */
        IN_TURN,
        /** {@code cap < hint < probeBackMaxMs}: switch, cool the primary for the hint, probe back. */
        PROBE_BACK,
        /** {@code hint >= probeBackMaxMs}: switch with no probe; without a rung, fail at once. */
        FALLBACK_ONLY
    }

    /** The hinted-wait ceiling and the probe-back boundary ({@code retry.hintedWaitCapMs}, {@code retry.probeBackMaxMs}). */
    public record Limits(long hintedWaitCapMs, long probeBackMaxMs) {
        public static final Limits DEFAULTS = new Limits(300_000, 3_600_000);
    }

    /**
     * One tier-1 wait.
     *
     * @param delayMs what to announce and sleep
     * @param next the chain's wait state after this wait
     * @param demote the cumulative hinted wait passed the cap: switch instead of waiting
     * @param remainingMs time left to the hint's deadline (the failed model's cooldown on a switch)
     */
    public record InTurn(long delayMs, RateLimitWait next, boolean demote, long remainingMs) {}

    private HintTiers() {}

    /** The tier of a hint (null: none); an explicit 0 is a hint (tier 1). */
    public static Tier classify(Long hintMs, Limits limits) {
        if (hintMs == null) {
            return Tier.NO_HINT;
        }
        if (hintMs <= limits.hintedWaitCapMs()) {
            return Tier.IN_TURN;
        }
        return hintMs < limits.probeBackMaxMs() ? Tier.PROBE_BACK : Tier.FALLBACK_ONLY;
    }

    /**
     * The next tier-1 wait. {@code floorMs} is the attempt's exponential backoff
     * ({@code baseDelayMs·2^(attempt-1)}); no wait is shorter. A hinted 429 waits
     * {@code max(hint, floor)} (the hint moves the deadline); a 429 without a hint inside the chain
     * waits what is left to the last deadline, at least the floor. The wait demotes (switch instead)
     * once the cumulative wait passes the cap; a cumulative wait equal to the cap still waits.
     */
    public static InTurn inTurn(Long hintMs, RateLimitWait state, long floorMs, long capMs, long nowMs) {
        long floor = Math.max(0, floorMs);
        if (hintMs != null) {
            // The whole hint, never half of it first: an early retry inside the window costs a request
            // and usually earns another 429 (issue 27).
            long delay = Math.max(hintMs, floor);
            long deadline = saturatedAdd(nowMs, hintMs);
            long cumulative = saturatedAdd(state.cumulativeMs(), delay);
            return new InTurn(delay, new RateLimitWait(RateLimitWait.Phase.DONE, deadline, cumulative),
                    cumulative > capMs, hintMs);
        }
        long remaining = Math.max(0, state.deadlineMs() - nowMs);
        long delay = Math.max(remaining, floor);
        long cumulative = saturatedAdd(state.cumulativeMs(), delay);
        return new InTurn(delay, new RateLimitWait(RateLimitWait.Phase.DONE, state.deadlineMs(), cumulative),
                cumulative > capMs, remaining);
    }

    /**
     * The same-model wait when no rung can take over: tier 1 never waits less than the hint (the
     * window the server asked for), tier 2 waits the hint up to the cap; no hint is the backoff.
     * Tier 3 never waits (see {@link #noFallbackMessage}).
     */
    public static long withoutFallback(Tier tier, Long hintMs, long floorMs, long capMs) {
        long floor = Math.max(0, floorMs);
        return switch (tier) {
            case IN_TURN -> Math.max(hintMs, floor);
            case PROBE_BACK -> Math.max(Math.min(hintMs, capMs), floor);
            case NO_HINT, FALLBACK_ONLY -> floor;
        };
    }

    /** The final error of a tier-3 429 with nowhere to go (FALLBACK §4), naming the hint in whole seconds. */
    public static String noFallbackMessage(long hintMs, String error) {
        long seconds = hintMs / 1000 + (hintMs % 1000 == 0 ? 0 : 1);
        return "Provider requested a " + seconds + "s wait before retrying and no usable fallback model is "
                + "available. " + error;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
