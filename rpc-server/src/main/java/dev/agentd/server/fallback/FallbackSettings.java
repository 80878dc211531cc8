package dev.agentd.server.fallback;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.config.Settings;
import dev.agentd.server.runtime.LogText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fallback settings (the fallback design §1), read from the effective settings. Malformed
 * values fall back to their defaults and each adds a warning to {@link #warnings}, which the caller
 * reports (they are data, not just log lines, so {@code get_fallback_state} can show them).
 * Whether the project's chains replace the global ones is the settings store's business.
 *
 * @param enabled false when {@code retry.modelFallback} is false or the run disabled it
 * @param chains the configured chains, key → entries, in file order ({@code []} = tombstone)
 */
public record FallbackSettings(
        boolean enabled,
        Map<String, List<String>> chains,
        RevertPolicy revertPolicy,
        long hintedWaitCapMs,
        long probeBackMaxMs,
        long circuitCooldownMs,
        long circuitMaxCooldownMs,
        long logMaxBytes,
        List<String> warnings) {

    public static final long DEFAULT_HINTED_WAIT_CAP_MS = 300_000;
    public static final long DEFAULT_PROBE_BACK_MAX_MS = 3_600_000;
    public static final long DEFAULT_CIRCUIT_COOLDOWN_MS = 60_000;
    public static final long DEFAULT_CIRCUIT_MAX_COOLDOWN_MS = 1_800_000;
    public static final long DEFAULT_LOG_MAX_BYTES = 5L * 1024 * 1024;
    static final String CHAINS_PATH = "retry.fallbackChains";
    /**
     * Chains read from the settings; the rest are ignored (validation warns once). Far above any
     * real configuration, low enough that canonicalization, validation and get_fallback_state stay
     * small whatever a (project) settings file holds.
     */
    public static final int MAX_CHAINS = 256;
    /** Entries read per chain; the rest are ignored (validation warns once per chain). */
    public static final int MAX_CHAIN_ENTRIES = 32;

    public FallbackSettings {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        chains.forEach((key, entries) -> copy.put(key, List.copyOf(entries)));
        chains = java.util.Collections.unmodifiableMap(copy);
        warnings = List.copyOf(warnings);
    }

    /** The settings with fallback as configured. */
    public static FallbackSettings from(Settings settings) {
        return from(settings, false);
    }

    /**
     * @param disabledForRun {@code --no-model-fallback} or {@code AGENTD_NO_FALLBACK=1}
     *     ({@link #disabledByRun}); it wins over the setting for this process only
     */
    public static FallbackSettings from(Settings settings, boolean disabledForRun) {
        List<String> warnings = new ArrayList<>();
        boolean enabled = bool(settings, "retry.modelFallback", true, warnings) && !disabledForRun;
        Map<String, List<String>> chains = chains(settings.node(CHAINS_PATH), warnings);
        RevertPolicy policy = revertPolicy(settings, warnings);
        long cap = millis(settings, "retry.hintedWaitCapMs", DEFAULT_HINTED_WAIT_CAP_MS, 0, warnings);
        long probeBack = millis(settings, "retry.probeBackMaxMs", DEFAULT_PROBE_BACK_MAX_MS, 0, warnings);
        if (probeBack <= cap) {
            warnings.add("settings: 'retry.probeBackMaxMs' (" + probeBack + ") must exceed 'retry.hintedWaitCapMs' ("
                    + cap + "); using " + DEFAULT_PROBE_BACK_MAX_MS + " and " + DEFAULT_HINTED_WAIT_CAP_MS);
            cap = DEFAULT_HINTED_WAIT_CAP_MS;
            probeBack = DEFAULT_PROBE_BACK_MAX_MS;
        }
        long cooldown = millis(settings, "fallback.circuitCooldownMs", DEFAULT_CIRCUIT_COOLDOWN_MS, 0, warnings);
        long maxCooldown = Math.max(cooldown,
                millis(settings, "fallback.circuitMaxCooldownMs", DEFAULT_CIRCUIT_MAX_COOLDOWN_MS, 0, warnings));
        long logMax = millis(settings, "fallback.log.maxBytes", DEFAULT_LOG_MAX_BYTES, 1, warnings);
        return new FallbackSettings(enabled, chains, policy, cap, probeBack, cooldown, maxCooldown, logMax, warnings);
    }

    /** Whether the run disables switching: the CLI flag, or {@code AGENTD_NO_FALLBACK=1}. */
    public static boolean disabledByRun(boolean noModelFallbackFlag, Map<String, String> environment) {
        return noModelFallbackFlag || "1".equals(environment.get("AGENTD_NO_FALLBACK"));
    }

    /** Circuits are off when their cooldown is 0 (neither opened nor honoured). */
    public boolean circuitsEnabled() {
        return circuitCooldownMs > 0;
    }

    private static Map<String, List<String>> chains(Optional<JsonNode> node, List<String> warnings) {
        Map<String, List<String>> chains = new LinkedHashMap<>();
        if (node.isEmpty()) {
            return chains;
        }
        JsonNode raw = node.get();
        if (!raw.isObject()) {
            warnings.add("settings: '" + CHAINS_PATH + "' must be an object of selector → list of selectors, but is "
                    + ChainValidation.describe(raw) + "; ignoring it");
            return chains;
        }
        // Keys contain dots and slashes, so they are read as fields, never as dotted paths.
        for (Map.Entry<String, JsonNode> chain : raw.properties()) {
            if (!ChainValidation.isStringArray(chain.getValue())) {
                warnings.add("settings: '" + CHAINS_PATH + "' entry " + LogText.quoted(chain.getKey())
                        + " is not a list of strings; ignoring all fallback chains");
                return new LinkedHashMap<>();
            }
            if (chains.size() == MAX_CHAINS) {
                continue; // shape still checked above; the count is validation's warning
            }
            List<String> entries = new ArrayList<>();
            JsonNode values = chain.getValue();
            for (int i = 0; i < Math.min(values.size(), MAX_CHAIN_ENTRIES); i++) {
                entries.add(values.get(i).textValue());
            }
            chains.put(chain.getKey(), entries);
        }
        return chains;
    }

    /** The warning for a settings object with {@code count} chains. */
    static String tooManyChains(int count) {
        return "Fallback chains: " + count + " are configured; only the first " + MAX_CHAINS + " are used.";
    }

    /** The warning for a chain of {@code count} entries. */
    static String tooLong(String key, int count) {
        return "Fallback chain " + LogText.quoted(key) + " has " + count + " entries; only the first "
                + MAX_CHAIN_ENTRIES + " are used.";
    }

    private static RevertPolicy revertPolicy(Settings settings, List<String> warnings) {
        String path = "retry.fallbackRevertPolicy";
        Optional<JsonNode> node = settings.node(path);
        String text = node.filter(JsonNode::isTextual).map(JsonNode::textValue).orElse(null);
        RevertPolicy policy = RevertPolicy.parse(text);
        if (node.isPresent() && !policy.wire().equals(text)) {
            warnings.add(malformed(path, node.get(), "\"cooldown-expiry\" or \"never\"", policy.wire()));
        }
        return policy;
    }

    private static boolean bool(Settings settings, String path, boolean fallback, List<String> warnings) {
        Optional<JsonNode> node = settings.node(path);
        if (node.isEmpty()) {
            return fallback;
        }
        if (node.get().isBoolean()) {
            return node.get().booleanValue();
        }
        warnings.add(malformed(path, node.get(), "a boolean", fallback));
        return fallback;
    }

    private static long millis(Settings settings, String path, long fallback, long min, List<String> warnings) {
        Optional<JsonNode> node = settings.node(path);
        if (node.isEmpty()) {
            return fallback;
        }
        JsonNode value = node.get();
        if (value.isIntegralNumber() && value.canConvertToLong() && value.longValue() >= min) {
            return value.longValue();
        }
        if (value.isFloatingPointNumber() && Double.isFinite(value.doubleValue()) && value.doubleValue() >= min
                && value.doubleValue() < Long.MAX_VALUE) {
            return (long) Math.floor(value.doubleValue());
        }
        warnings.add(malformed(path, value, "a number ≥ " + min, fallback));
        return fallback;
    }

    private static String malformed(String path, JsonNode value, String expected, Object fallback) {
        return "settings: '" + path + "' should be " + expected + " but is " + LogText.clip(value.toString())
                + "; using " + fallback;
    }
}
