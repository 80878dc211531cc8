package dev.agentd.server.session;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.ai.ThinkingSupport;
import java.util.List;
import java.util.Optional;

/**
 * The session's current model and thinking level: the models usable now (a credential exists or
 * none is needed), {@code set_model}, {@code cycle_model} and the thinking-level commands. Changes
 * apply from the next request, are persisted as the defaults, and are reported to the observer
 * (which announces {@code model_changed} and records them in the session file).
 */
public final class ModelControl {
    /** Told about every change. */
    interface Observer {
        void modelChanged(Model model, ThinkingLevel thinkingLevel, String source);

        void thinkingChanged(ThinkingLevel thinkingLevel);
    }

    private final SessionContext context;
    private final Observer observer;
    private volatile Model model;
    /** What the user asked for; {@link #thinking} is it clamped to the current model. */
    private volatile ThinkingLevel preferred;
    private volatile ThinkingLevel thinking;

    ModelControl(SessionContext context, SessionDefaults defaults, Observer observer, Model initial,
            ThinkingLevel initialThinking) {
        this.context = context;
        this.observer = observer;
        this.model = initial;
        this.preferred = initialThinking != null ? initialThinking
                : defaults.thinkingLevel().orElse(ThinkingLevel.MEDIUM);
        this.thinking = ThinkingSupport.clamp(initial, preferred);
    }

    public Model current() {
        return model;
    }

    public ThinkingLevel thinkingLevel() {
        return thinking;
    }

    /** Models whose provider has a credential or needs none. */
    public List<Model> available() {
        return context.models().all().stream().filter(this::usable).toList();
    }

    public boolean usable(Model candidate) {
        boolean needsKey = context.providers().forModel(candidate).map(p -> p.requiresCredential()).orElse(true);
        return !needsKey || context.auth().hasCredential(candidate.provider());
    }

    /** @throws IllegalArgumentException {@code Model not found: provider/id} */
    public Model set(String provider, String modelId) {
        Model found = available().stream()
                .filter(candidate -> candidate.provider().equals(provider) && candidate.id().equals(modelId))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Model not found: " + provider + "/" + modelId));
        switchTo(found, "set");
        return found;
    }

    /** The next usable model after the current one; empty when there is nothing to cycle to. */
    public Optional<Results.CycledModel> cycle() {
        List<Model> usable = available();
        if (usable.size() <= 1) {
            return Optional.empty();
        }
        int index = -1;
        for (int i = 0; i < usable.size(); i++) {
            if (usable.get(i).selector().equals(model.selector())) {
                index = i;
            }
        }
        Model next = usable.get((index + 1) % usable.size());
        switchTo(next, "cycle");
        return Optional.of(new Results.CycledModel(next, thinking, false));
    }

    public void setThinkingLevel(ThinkingLevel level) {
        preferred = level;
        thinking = ThinkingSupport.clamp(model, level);
        context.persist("defaultThinkingLevel", thinking.wire());
        observer.thinkingChanged(thinking);
    }

    /**
     * Returns to the model and level a resumed session last used, when that model is still usable;
     * not persisted as the defaults.
     */
    void restore(Model saved, ThinkingLevel savedThinking) {
        if (saved != null && usable(saved) && !saved.selector().equals(model.selector())) {
            model = saved;
            thinking = ThinkingSupport.clamp(saved, preferred);
            observer.modelChanged(saved, thinking, "restore");
        }
        if (savedThinking != null) {
            preferred = savedThinking;
            thinking = ThinkingSupport.clamp(model, savedThinking);
        }
    }

    /** The next supported level; empty for models without reasoning. */
    public Optional<ThinkingLevel> cycleThinkingLevel() {
        List<ThinkingLevel> levels = ThinkingSupport.levels(model);
        if (levels.size() <= 1) {
            return Optional.empty();
        }
        int index = levels.indexOf(thinking);
        ThinkingLevel next = levels.get((index + 1) % levels.size());
        setThinkingLevel(next);
        return Optional.of(next);
    }

    private void switchTo(Model next, String source) {
        model = next;
        thinking = ThinkingSupport.clamp(next, preferred);
        context.persist("defaultProvider", next.provider());
        context.persist("defaultModel", next.id());
        observer.modelChanged(next, thinking, source);
    }
}
