package dev.agentd.server.session;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.ai.ModelAvailability;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.ThinkingSupport;
import dev.agentd.server.fallback.control.ModelSeat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The session's current model and thinking level: the models usable now (a credential exists or
 * none is needed), {@code set_model}, {@code cycle_model}, the thinking-level commands and the
 * automatic switches (resume, and fallback). Changes apply from the next request and are reported
 * to the observer (which announces {@code model_changed} and {@code thinking_level_changed} and
 * records them in the session file).
 *
 * <p>Threads: the choice is one immutable {@link ModelChoice} published at once, so readers take
 * a snapshot without locking. Writers (the RPC reader for commands, the run thread for resume and
 * fallback) are serialized, and each notifies the observer before the next writer starts, so the
 * session file and the event stream see the changes in the order they were published.
 */
public final class ModelControl implements ModelSeat {
    /** Why the model changes; {@link #wire()} is the {@code source} of {@code model_changed} (SPEC §3.4). */
    public enum Source {
        SET("set"),
        CYCLE("cycle"),
        RESTORE("restore"),
        FALLBACK("fallback"),
        FALLBACK_REVERT("fallback-revert");

        private final String wire;

        Source(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        /** A fallback switch or its revert: recorded with its reason and the original model. */
        public boolean fallback() {
            return this == FALLBACK || this == FALLBACK_REVERT;
        }
    }

    /**
     * One model switch as the observer sees it.
     *
     * @param replaced the model in use before the switch
     * @param original the model a fallback episode started from (for other sources the replaced one)
     * @param persisted whether the new model became the default in the settings file
     */
    record Switched(ModelChoice now, Model replaced, Source source, Model original, boolean persisted) {}

    /** Told about every change, in publication order. */
    interface Observer {
        default void modelChanged(Switched change) {}

        /** The preferred level changed by a command; {@code now} is the choice it published. */
        default void thinkingChanged(ModelChoice now) {}

        /** The effective level changed, for whatever reason (set, cycle, a model switch that clamps it). */
        default void effectiveThinkingChanged(ThinkingLevel level) {}
    }

    private final SessionContext context;
    /** Registered while the session is built, before any change: read without a lock afterwards. */
    private final List<Observer> observers = new CopyOnWriteArrayList<>();
    private final AtomicReference<ModelChoice> choice;
    /** Serializes writers; readers never take it. */
    private final Object writeLock = new Object();

    ModelControl(SessionContext context, SessionDefaults defaults, Model initial, ThinkingLevel initialThinking) {
        this.context = context;
        ThinkingLevel preferred = initialThinking != null ? initialThinking
                : defaults.thinkingLevel().orElse(ThinkingLevel.MEDIUM);
        this.choice = new AtomicReference<>(ModelChoice.of(initial, preferred));
    }

    /** Adds an observer, told about every later change in publication order. */
    void addObserver(Observer observer) {
        observers.add(observer);
    }

    /** The model and thinking level in force, as one snapshot. */
    @Override
    public ModelChoice choice() {
        return choice.get();
    }

    public Model current() {
        return choice.get().model();
    }

    public ThinkingLevel thinkingLevel() {
        return choice.get().effective();
    }

    /**
     * What {@code get_available_models} and {@code cycle_model} offer: the models whose provider has
     * a credential (a key, or a configured cloud's ambient one); the credential-free embedded ones only when there is nothing else or when the
     * registry says they were asked for (see {@link ModelRegistry#listingEmbedded}).
     */
    public List<Model> available() {
        List<Model> usable = usableModels();
        List<Model> configured = usable.stream().filter(context.availability()::configuredByUser).toList();
        return configured.isEmpty() || context.models().listsEmbedded() ? usable : configured;
    }

    /** Models whose provider has a credential or needs none; {@code set_model} accepts any of them by name. */
    private List<Model> usableModels() {
        return context.models().all().stream().filter(this::usable).toList();
    }

    /** Whether {@code candidate} can be called now ({@link ModelAvailability}). */
    public boolean usable(Model candidate) {
        return context.availability().usable(candidate);
    }

    /** @throws IllegalArgumentException {@code Model not found: provider/id} */
    public Model set(String provider, String modelId) {
        Model found = usableModels().stream()
                .filter(candidate -> candidate.provider().equals(provider) && candidate.id().equals(modelId))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Model not found: " + provider + "/" + modelId));
        switchTo(found, null, Source.SET, true);
        return found;
    }

    /** The next usable model after the current one; empty when there is nothing to cycle to. */
    public Optional<Results.CycledModel> cycle() {
        synchronized (writeLock) {
            List<Model> usable = available();
            if (usable.size() <= 1) {
                return Optional.empty();
            }
            String currentSelector = current().selector();
            int index = -1;
            for (int i = 0; i < usable.size(); i++) {
                if (usable.get(i).selector().equals(currentSelector)) {
                    index = i;
                }
            }
            Model next = usable.get((index + 1) % usable.size());
            ModelChoice now = switchTo(next, null, Source.CYCLE, true);
            return Optional.of(new Results.CycledModel(next, now.effective(), false));
        }
    }

    public void setThinkingLevel(ThinkingLevel level) {
        synchronized (writeLock) {
            ModelChoice now = publish(choice.get().withPreferred(level));
            context.persist("defaultThinkingLevel", now.effective().wire());
            observers.forEach(observer -> observer.thinkingChanged(now));
        }
    }

    /** {@code get_available_thinking_levels}: the current model's levels, lowest first ({@code off} alone without reasoning). */
    public List<ThinkingLevel> availableThinkingLevels() {
        return ThinkingSupport.levels(current());
    }

    /** The next supported level; empty for models without reasoning. */
    public Optional<ThinkingLevel> cycleThinkingLevel() {
        synchronized (writeLock) {
            ModelChoice now = choice.get();
            List<ThinkingLevel> levels = ThinkingSupport.levels(now.model());
            if (levels.size() <= 1) {
                return Optional.empty();
            }
            int index = levels.indexOf(now.effective());
            ThinkingLevel next = levels.get((index + 1) % levels.size());
            setThinkingLevel(next);
            return Optional.of(next);
        }
    }

    /**
     * Returns to the model and level a resumed session last used (either may be null: keep the
     * current one); a model no longer usable is not restored. Not persisted as the defaults.
     */
    void restore(Model saved, ThinkingLevel savedThinking) {
        synchronized (writeLock) {
            ModelChoice before = choice.get();
            boolean switching = saved != null && usable(saved) && !saved.selector().equals(before.model().selector());
            if (switching) {
                switchTo(saved, savedThinking, Source.RESTORE, false);
            } else if (savedThinking != null) {
                publish(before.withPreferred(savedThinking));
            }
        }
    }

    /** {@link #switchTo(Model, ThinkingLevel, Source, boolean, Model)} whose original is the replaced model. */
    public ModelChoice switchTo(Model to, ThinkingLevel level, Source source, boolean persistAsDefault) {
        return switchTo(to, level, source, persistAsDefault, null);
    }

    /**
     * Switches to {@code to} from the next request; the caller has checked that it may be used.
     *
     * @param level the thinking level to ask for from now on; null keeps the preferred level
     * @param persistAsDefault whether {@code to} becomes {@code defaultProvider}/{@code defaultModel}
     *     in the global settings (user choices yes; resume and fallback switches no)
     * @param original the model a fallback episode started from, recorded with fallback entries;
     *     null means the replaced model (the first switch of an episode)
     * @return the choice now in force
     */
    public ModelChoice switchTo(Model to, ThinkingLevel level, Source source, boolean persistAsDefault,
            Model original) {
        synchronized (writeLock) {
            ModelChoice before = choice.get();
            ModelChoice now = publish(ModelChoice.of(to, level != null ? level : before.preferred()));
            if (persistAsDefault) {
                context.persist("defaultProvider", to.provider());
                context.persist("defaultModel", to.id());
            }
            Switched change = new Switched(now, before.model(), source, original != null ? original : before.model(),
                    persistAsDefault);
            observers.forEach(observer -> observer.modelChanged(change));
            return now;
        }
    }

    @Override
    public void switchForFallback(Model to, ThinkingLevel level, Model original) {
        switchTo(to, level, Source.FALLBACK, false, original);
    }

    @Override
    public void revertTo(Model original, ThinkingLevel level) {
        switchTo(original, level, Source.FALLBACK_REVERT, false, original);
    }

    /** Under the write lock, so level changes are reported in publication order. */
    private ModelChoice publish(ModelChoice next) {
        ModelChoice before = choice.getAndSet(next);
        if (before.effective() != next.effective()) {
            observers.forEach(observer -> observer.effectiveThinkingChanged(next.effective()));
        }
        return next;
    }
}
