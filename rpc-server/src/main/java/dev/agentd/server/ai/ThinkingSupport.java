package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.ArrayList;
import java.util.List;

/** Which thinking levels a model accepts, and clamping a requested level to them. */
public final class ThinkingSupport {
    private ThinkingSupport() {}

    /** {@code off} only for models without reasoning; {@code xhigh} only for the models that have it. */
    public static List<ThinkingLevel> levels(Model model) {
        if (model == null || !model.reasoning()) {
            return List.of(ThinkingLevel.OFF);
        }
        List<ThinkingLevel> levels = new ArrayList<>(List.of(ThinkingLevel.OFF, ThinkingLevel.MINIMAL,
                ThinkingLevel.LOW, ThinkingLevel.MEDIUM, ThinkingLevel.HIGH));
        if (supportsXhigh(model)) {
            levels.add(ThinkingLevel.XHIGH);
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
        return id.startsWith("gpt-5") || id.startsWith("o3") || id.startsWith("claude-opus-4");
    }
}
