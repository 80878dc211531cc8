package dev.agentd.server.fallback;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.config.Settings;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The pre-emptive switch (issue 27 point 4, FALLBACK §6.1): before a turn, a chain-managed model
 * whose rate-limit window is fuller than {@code retry.preemptiveSwitchAt} is left for the next rung
 * that is not, instead of being called until it answers 429. Pure: the controller
 * ({@code fallback.control.TurnBoundary}) gathers the utilizations and carries the switch out.
 */
public final class PreemptiveSwitch {
    public static final String PATH = "retry.preemptiveSwitchAt";

    private PreemptiveSwitch() {}

    /**
     * The threshold in force: a number in (0, 1]. Absent, 0, or anything else (a string, a
     * negative number, more than 1) is off — the feature is opt-in and a typo must not switch models.
     */
    public static OptionalDouble threshold(Settings settings) {
        Optional<JsonNode> node = settings.node(PATH);
        if (node.isEmpty() || !node.get().isNumber()) {
            return OptionalDouble.empty();
        }
        double value = node.get().doubleValue();
        return value > 0 && value <= 1 ? OptionalDouble.of(value) : OptionalDouble.empty();
    }

    /** Whether a model at {@code utilization} is to be left: known and strictly above the threshold. */
    public static boolean due(OptionalDouble utilization, OptionalDouble threshold) {
        return threshold.isPresent() && utilization.isPresent()
                && utilization.getAsDouble() > threshold.getAsDouble();
    }
}
