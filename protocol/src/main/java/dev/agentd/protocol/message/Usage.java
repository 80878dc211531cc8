package dev.agentd.protocol.message;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;

/**
 * Token counts of one assistant reply and their cost in USD. {@code totalTokens} is what
 * compaction uses as the context size.
 */
public record Usage(long input, long output, long cacheRead, long cacheWrite, long totalTokens, Cost cost) {

    public static final Usage ZERO = new Usage(0, 0, 0, 0, 0, Cost.ZERO);

    public Usage {
        if (cost == null) {
            cost = Cost.ZERO;
        }
    }

    /** Cost in USD per token class, and their sum; whole amounts are written as integers, as pi does. */
    @JsonSerialize(using = CostSerializer.class)
    public record Cost(double input, double output, double cacheRead, double cacheWrite, double total) {
        public static final Cost ZERO = new Cost(0, 0, 0, 0, 0);
    }
}
