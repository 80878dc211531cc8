package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.ArrayList;
import java.util.List;

/**
 * Which thinking levels a model accepts, and clamping a requested level to them. The list is also
 * the {@code cycle_thinking_level} order (lowest first, wrapping to {@code off}).
 */
public final class ThinkingSupport {
    private ThinkingSupport() {}

    /**
     * {@code off} only for models without reasoning; {@code xhigh} and {@code max} only for the
     * models that have them.
     */
    public static List<ThinkingLevel> levels(Model model) {
        if (model == null || !model.reasoning()) {
            return List.of(ThinkingLevel.OFF);
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

    /** The requested level if supported, else the highest supported level below it. */
    public static ThinkingLevel clamp(Model model, ThinkingLevel requested) {
        List<ThinkingLevel> levels = levels(model);
        ThinkingLevel best = ThinkingLevel.OFF;
        for (ThinkingLevel level : levels) {
            if (level.ordinal() <= requested.ordinal()) {
                best = level;
            }
        }
        return best;
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
