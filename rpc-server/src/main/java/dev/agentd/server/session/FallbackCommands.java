package dev.agentd.server.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.fallback.RevertPolicy;
import java.io.IOException;
import java.util.List;

/**
 * The fallback commands (FALLBACK §9). Chains are edited in the global settings file only
 * ({@code retry.fallbackChains} is a replaced map: a project map still wins wholesale); the two
 * toggles apply now and persist like the other settings toggles.
 */
public final class FallbackCommands {
    private static final String CHAINS = "fallbackChains";

    private final SessionContext context;
    private final FallbackControl control;

    FallbackCommands(SessionContext context, FallbackControl control) {
        this.context = context;
        this.control = control;
    }

    public Results.FallbackState state() {
        return control.state();
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
        List<String> warnings = control.validate(key, entries);
        if (!warnings.isEmpty()) {
            throw new IllegalArgumentException("Fallback chain not saved: " + String.join(" ", warnings));
        }
        ArrayNode array = Json.mapper().createArrayNode();
        entries.forEach(array::add);
        writeGlobal(List.of("retry", CHAINS, key), array);
        return control.state();
    }

    /** Removes the chain {@code key} from the global settings (absent: nothing changes). */
    public Results.FallbackState removeChain(String key) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("Fallback chain key must not be empty");
        }
        writeGlobal(List.of("retry", CHAINS, key), null);
        return control.state();
    }

    /** {@code set_model_fallback}; {@code --no-model-fallback} still wins for this run. */
    public void setEnabled(boolean enabled) {
        context.persist("retry.modelFallback", enabled);
    }

    /** @throws IllegalArgumentException unless {@code policy} is {@code cooldown-expiry} or {@code never} */
    public void setRevertPolicy(String policy) {
        RevertPolicy parsed = RevertPolicy.parse(policy);
        if (!parsed.wire().equals(policy)) {
            throw new IllegalArgumentException("Revert policy must be \"cooldown-expiry\" or \"never\", got "
                    + (policy == null ? "null" : "\"" + policy + "\""));
        }
        context.persist("retry.fallbackRevertPolicy", parsed.wire());
    }

    private void writeGlobal(List<String> path, JsonNode value) {
        try {
            context.settings().setGlobal(path, value);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot save the fallback chain: " + e.getMessage());
        }
    }
}
