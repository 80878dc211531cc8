package dev.agentd.server.runtime;

import java.util.random.RandomGenerator;

/**
 * Random spread added to a delay so that many sessions hitting the same limit do not all come back
 * at the same moment (FALLBACK's cooldowns add 0–30 s). The generator is always injected (the
 * session's {@code SessionContext.random()}), never a global one, so tests can seed it.
 */
public final class Jitter {
    private Jitter() {}

    /** A uniformly drawn delay in {@code [0, maxMs]}; 0 when {@code maxMs <= 0}. */
    public static long upTo(RandomGenerator random, long maxMs) {
        return maxMs <= 0 ? 0 : random.nextLong(maxMs + 1);
    }
}
