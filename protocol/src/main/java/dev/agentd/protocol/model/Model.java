package dev.agentd.protocol.model;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;

/**
 * A model as clients see it (pi's Model without {@code headers}/{@code compat}: configured headers
 * may hold secrets, so they never leave the daemon). Prices are USD per million tokens. The
 * {@code baseUrl} leaves the daemon without user-info and query ({@link UrlCredentials#forDisplay}):
 * a URL's password or {@code ?key=} token would otherwise be on stdout in every model object.
 */
public record Model(
        String id,
        String name,
        String api,
        String provider,
        @JsonSerialize(converter = UrlCredentials.Display.class) String baseUrl,
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
