package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ThinkingSupport;

/**
 * The model in use and its thinking level as one value, so a reader ({@code get_state}, a provider
 * call) never pairs a new model with the old level.
 *
 * @param preferred the level asked for (by the user, the defaults or a resumed session)
 * @param effective {@code preferred} clamped to what {@code model} supports; what requests use
 */
public record ModelChoice(Model model, ThinkingLevel preferred, ThinkingLevel effective) {

    public static ModelChoice of(Model model, ThinkingLevel preferred) {
        return new ModelChoice(model, preferred, ThinkingSupport.clamp(model, preferred));
    }

    public ModelChoice withPreferred(ThinkingLevel level) {
        return of(model, level);
    }
}
