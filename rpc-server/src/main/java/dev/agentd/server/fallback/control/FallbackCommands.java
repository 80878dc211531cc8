package dev.agentd.server.fallback.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.fallback.RevertPolicy;
import java.io.IOException;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The fallback commands (FALLBACK §9). Chains are edited in the global settings file only
 * ({@code retry.fallbackChains} is a replaced map: a project map still wins wholesale); the two
 * toggles apply now and persist like the other settings toggles.
 */
public final class FallbackCommands {
    private static final String CHAINS = "fallbackChains";

    private final Rungs rungs;
    private final SettingsStore settings;
    private final BiConsumer<String, Object> persist;

    /** @param persist applies a settings toggle now and persists it to the global file */
    FallbackCommands(Rungs rungs, SettingsStore settings, BiConsumer<String, Object> persist) {
        this.rungs = rungs;
        this.settings = settings;
        this.persist = persist;
    }

    /**
     * {@code get_fallback_state}. Answered on the command reader without waiting for a store: the
     * circuits are the session's last read of them (every turn boundary and switch reads them, and
     * this call asks the run thread for a fresh read for the next one).
     */
    public Results.FallbackState state() {
        FallbackSettings current = rungs.settings();
        long now = rungs.now();
        Episodes.Episode episode = rungs.episodes.active();
        Results.FallbackEpisode active = episode == null ? null : new Results.FallbackEpisode(episode.chainKey(),
                episode.original().selector(), episode.pins().pinned(), episode.pins().reason());
        List<Results.FallbackCooldown> cooling = rungs.health.listed(now);
        List<Results.FallbackCircuit> circuits = rungs.circuits.listed();
        rungs.circuits.refreshOn(rungs.wiring.storeWork());
        var status = rungs.wiring.services().state().status();
        return new Results.FallbackState(current.enabled(), current.revertPolicy().wire(),
                rungs.chains(current).asMap(), active, cooling, circuits,
                rungs.wiring.services().warnings(rungs.wiring.settings().get(), rungs.catalog),
                new Results.FallbackStore(status.kind(), status.shared(), status.warning().orElse(null)));
    }

    /** Validation warnings for {@code entries} as the chain {@code key} (empty = it may be saved). */
    private List<String> validate(String key, List<String> entries) {
        ObjectNode node = Json.mapper().createObjectNode();
        ArrayNode array = node.putArray(key);
        entries.forEach(array::add);
        return Chains.validate(node, rungs.catalog);
    }

    /**
     * Validates, then saves {@code entries} as the chain {@code key} ({@code []} = tombstone).
     *
     * @throws IllegalArgumentException with every validation warning; nothing is saved
     */
    public Results.FallbackState setChain(String key, List<String> entries) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("Fallback chain key must not be empty");
        }
        if (entries == null || entries.stream().anyMatch(entry -> entry == null || entry.isBlank())) {
            throw new IllegalArgumentException("Fallback chain entries must be non-empty strings");
        }
        List<String> warnings = validate(key, entries);
        if (!warnings.isEmpty()) {
            throw new IllegalArgumentException("Fallback chain not saved: " + String.join(" ", warnings));
        }
        ArrayNode array = Json.mapper().createArrayNode();
        entries.forEach(array::add);
        writeGlobal(List.of("retry", CHAINS, key), array);
        return state();
    }

    /** Removes the chain {@code key} from the global settings (absent: nothing changes). */
    public Results.FallbackState removeChain(String key) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("Fallback chain key must not be empty");
        }
        writeGlobal(List.of("retry", CHAINS, key), null);
        return state();
    }

    /** {@code set_model_fallback}; {@code --no-model-fallback} still wins for this run. */
    public void setEnabled(boolean enabled) {
        persist.accept("retry.modelFallback", enabled);
    }

    /** @throws IllegalArgumentException unless {@code policy} is {@code cooldown-expiry} or {@code never} */
    public void setRevertPolicy(String policy) {
        RevertPolicy parsed = RevertPolicy.parse(policy);
        if (!parsed.wire().equals(policy)) {
            throw new IllegalArgumentException("Revert policy must be \"cooldown-expiry\" or \"never\", got "
                    + (policy == null ? "null" : "\"" + policy + "\""));
        }
        persist.accept("retry.fallbackRevertPolicy", parsed.wire());
    }

    private void writeGlobal(List<String> path, JsonNode value) {
        try {
            settings.setGlobal(path, value);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot save the fallback chain: " + e.getMessage());
        }
    }
}
