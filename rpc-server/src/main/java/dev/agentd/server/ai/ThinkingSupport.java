package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.catalog.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which thinking levels a model accepts, and clamping a requested level to them. The list is also
 * the {@code cycle_thinking_level} order (lowest first, wrapping to {@code off}).
 */
public final class ThinkingSupport {
    private ThinkingSupport() {}

    /**
     * {@code off} only for models without reasoning. A built-in model has the levels pi's catalog
     * gives it (some always think: no {@code off}; some have {@code max}). Any other reasoning
     * model has off to high, and {@code xhigh} and {@code max} when its id says it has them.
     */
    public static List<ThinkingLevel> levels(Model model) {
        if (model == null || !model.reasoning()) {
            return List.of(ThinkingLevel.OFF);
        }
        Optional<List<ThinkingLevel>> known = Catalog.builtin().thinkingLevels(model);
        if (known.isPresent()) {
            return known.get();
        }
        List<ThinkingLevel> levels = new ArrayList<>(List.of(ThinkingLevel.OFF, ThinkingLevel.MINIMAL,
                ThinkingLevel.LOW, ThinkingLevel.MEDIUM, ThinkingLevel.HIGH));
        if (supportsXhigh(model)) {
            levels.add(ThinkingLevel.XHIGH);
        }
        if (supportsMax(model)) {
            levels.add(ThinkingLevel.MAX);
        }
        return List.copyOf(levels);
    }

    /**
     * The requested level if supported, else the highest supported level below it, else (a model
     * that always thinks asked for {@code off}) its lowest level.
     */
    public static ThinkingLevel clamp(Model model, ThinkingLevel requested) {
        List<ThinkingLevel> levels = levels(model);
        ThinkingLevel best = null;
        for (ThinkingLevel level : levels) {
            if (level.ordinal() <= requested.ordinal()) {
                best = level;
            }
        }
        return best != null ? best : levels.get(0);
    }

    private static boolean supportsXhigh(Model model) {
        String id = model.id();
        return id.startsWith("gpt-5") || id.startsWith("o3") || id.startsWith("claude-opus-4") || supportsMax(model);
    }

    /**
     * The Claude models whose effort scale goes past xhigh (Opus 4.6 and later); on every other
     * model {@code max} clamps down to {@code xhigh} or {@code high}.
     */
    private static boolean supportsMax(Model model) {
        String id = model.id();
        return id.startsWith("claude-opus-4-6") || id.startsWith("claude-opus-4-7") || id.startsWith("claude-opus-5");
    }
}
