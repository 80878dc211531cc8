package dev.agentd.server.quota;

import dev.agentd.protocol.response.RateLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/** The pure rules of rate-limit figures: threshold crossings and what is still current. */
public final class QuotaRules {
    /** The utilizations announced by {@code rate_limit_update}. */
    public static final List<Double> THRESHOLDS = List.of(0.5, 0.8, 0.95);
    /**
     * How far below a threshold utilization must fall to re-arm it. A window reset falls far; a
     * token window refilling by a few per cent between two replies must not announce again.
     */
    public static final double REARM_MARGIN = 0.05;

    private QuotaRules() {}

    /**
     * What a new utilization does to a selector's announced level.
     *
     * @param level how many thresholds are announced (0 to {@code THRESHOLDS.size()})
     * @param crossed the threshold to announce now, or null: the highest one newly reached (a jump
     *     from 40 % to 90 % is one event at 0.8, not two)
     */
    public record Step(int level, Double crossed) {}

    /** The next level after {@code utilization} arrived at {@code level}. */
    public static Step step(int level, double utilization) {
        int reached = 0;
        while (reached < THRESHOLDS.size() && utilization >= THRESHOLDS.get(reached)) {
            reached++;
        }
        if (reached > level) {
            return new Step(reached, THRESHOLDS.get(reached - 1));
        }
        int kept = level;
        while (kept > reached && utilization < THRESHOLDS.get(kept - 1) - REARM_MARGIN) {
            kept--; // re-armed: it may be announced again when reached again
        }
        return new Step(kept, null);
    }

    /**
     * The fullest window that has not reset by {@code nowMs} (epoch): a window past its reset is
     * full again, so an old figure must not keep a model out. Empty when nothing current is known.
     */
    public static OptionalDouble current(RateLimits limits, long nowMs) {
        if (limits == null) {
            return OptionalDouble.empty();
        }
        List<RateLimits.Window> all = new ArrayList<>();
        if (limits.windows() != null) {
            all.addAll(limits.windows().values());
        }
        for (RateLimits.Window window : new RateLimits.Window[] {limits.requests(), limits.tokens(),
                limits.inputTokens(), limits.outputTokens()}) {
            if (window != null) {
                all.add(window);
            }
        }
        OptionalDouble best = OptionalDouble.empty();
        for (RateLimits.Window window : all) {
            boolean reset = window.resetAt() != null && window.resetAt() <= nowMs;
            if (window.utilization() != null && !reset
                    && (best.isEmpty() || window.utilization() > best.getAsDouble())) {
                best = OptionalDouble.of(window.utilization());
            }
        }
        return best;
    }
}
