package dev.agentd.server.fallback.control;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.config.Settings;
import dev.agentd.server.fallback.FallbackCatalog;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.FallbackLog;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.state.SharedState;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What the process decides once for model fallback (FALLBACK §1, §6, §7), handed to every session:
 * whether the run disables switching ({@code --no-model-fallback}, {@code AGENTD_NO_FALLBACK=1}),
 * where the debug log goes, the shared state (circuit breakers, credential blocks) of the agent
 * directory, and how long a circuit's probe lease lasts.
 *
 * @param probeLeaseMs the lease of a half-open probe: a probe that never answers is given up after
 *     the provider's stream-start timeout, and so is its lease (read by the provider settings, once)
 */
public record FallbackServices(boolean disabledForRun, FallbackLog log, SharedState state, LongSupplier probeLeaseMs) {

    public FallbackServices {
        log = log == null ? FallbackLog.NONE : log;
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(probeLeaseMs, "probeLeaseMs");
    }

    /** The settings in force now, with this run's switch applied. */
    public FallbackSettings settings(Settings settings) {
        return FallbackSettings.from(settings, disabledForRun);
    }

    /**
     * Every warning about the fallback settings: malformed values, then the chains' validation
     * against the catalog (logged at startup, listed by {@code get_fallback_state}).
     */
    public List<String> warnings(Settings settings, FallbackCatalog catalog) {
        List<String> warnings = new ArrayList<>(settings(settings).warnings());
        Optional<JsonNode> chains = settings.node("retry.fallbackChains");
        if (chains.isPresent() && chains.get().isObject()) {
            warnings.addAll(Chains.validate(chains.get(), catalog));
        }
        return warnings;
    }

    /** {@link #warnings(Settings, FallbackCatalog)} for a model registry. */
    public List<String> warnings(Settings settings, ModelRegistry models) {
        return warnings(settings, FallbackCatalog.of(models));
    }
}
