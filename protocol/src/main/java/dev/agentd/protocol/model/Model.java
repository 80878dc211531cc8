package dev.agentd.protocol.model;

import java.util.List;

/**
 * A model as clients see it (pi's Model without {@code headers}/{@code compat}: configured headers
 * may hold secrets, so they never leave the daemon). Prices are USD per million tokens.
 */
public record Model(
        String id,
        String name,
        String api,
        String provider,
        String baseUrl,
        boolean reasoning,
        List<String> input,
        Cost cost,
        long contextWindow,
        long maxTokens) {

    public Model {
        input = input == null ? List.of("text") : List.copyOf(input);
        if (cost == null) {
            cost = Cost.FREE;
        }
    }

    /** {@code provider/id}. */
    public String selector() {
        return provider + "/" + id;
    }

    /** Price per million tokens of each class. */
    public record Cost(double input, double output, double cacheRead, double cacheWrite) {
        public static final Cost FREE = new Cost(0, 0, 0, 0);
    }
}
