package dev.agentd.server.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.config.Settings;
import dev.agentd.server.fallback.Catalog;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.FallbackLog;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.state.MemoryState;
import dev.agentd.server.state.SharedState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the process decides once for model fallback (FALLBACK §1, §6, §7): whether the run disables
 * switching ({@code --no-model-fallback}, {@code AGENTD_NO_FALLBACK=1}), where the debug log goes,
 * and the shared state (circuit breakers, credential blocks) of the agent directory, one per
 * process and handed to every session.
 */
public record FallbackServices(boolean disabledForRun, FallbackLog log, SharedState state) {
    /**
     * Fallback as configured, no debug log, circuits in one process-local store on the machine's
     * clock that every user of this constant shares (tests and embedders wanting their own: {@link #local}).
     */
    public static final FallbackServices DEFAULTS = new FallbackServices(false, FallbackLog.NONE);

    public FallbackServices {
        log = log == null ? FallbackLog.NONE : log;
        state = state == null ? MemoryState.system() : state;
    }

    /** With a process-local state of its own. */
    public FallbackServices(boolean disabledForRun, FallbackLog log) {
        this(disabledForRun, log, MemoryState.system());
    }

    /** Fallback as configured, no debug log, a state of its own on {@code epochClock}. */
    public static FallbackServices local(java.util.function.LongSupplier epochClock) {
        return new FallbackServices(false, FallbackLog.NONE, new MemoryState(epochClock));
    }

    /** The settings in force now, with this run's switch applied. */
    public FallbackSettings settings(Settings settings) {
        return FallbackSettings.from(settings, disabledForRun);
    }

    /**
     * Every warning about the fallback settings: malformed values, then the chains' validation
     * against the catalog (logged at startup, listed by {@code get_fallback_state}).
     */
    public List<String> warnings(Settings settings, Catalog catalog) {
        List<String> warnings = new ArrayList<>(settings(settings).warnings());
        Optional<JsonNode> chains = settings.node("retry.fallbackChains");
        if (chains.isPresent() && chains.get().isObject()) {
            warnings.addAll(Chains.validate(chains.get(), catalog));
        }
        return warnings;
    }

    /** {@link #warnings(Settings, Catalog)} for a model registry. */
    public List<String> warnings(Settings settings, ModelRegistry models) {
        return warnings(settings, Catalog.of(models));
    }
}
