package dev.agentd.server.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.config.Settings;
import dev.agentd.server.fallback.Catalog;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.FallbackLog;
import dev.agentd.server.fallback.FallbackSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the process decides once for model fallback (FALLBACK §1, §7): whether the run disables
 * switching ({@code --no-model-fallback}, {@code AGENTD_NO_FALLBACK=1}) and where the debug log goes.
 */
public record FallbackServices(boolean disabledForRun, FallbackLog log) {
    /** Fallback as configured, no debug log (tests, embedding). */
    public static final FallbackServices DEFAULTS = new FallbackServices(false, FallbackLog.NONE);

    public FallbackServices {
        log = log == null ? FallbackLog.NONE : log;
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
