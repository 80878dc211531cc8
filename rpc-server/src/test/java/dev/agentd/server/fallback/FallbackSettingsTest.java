package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.config.SettingsStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fallback design §1: defaults, overrides, and malformed values reported as warnings. */
class FallbackSettingsTest {
    @TempDir
    Path dir;

    private FallbackSettings read(String json) throws IOException {
        return read(json, false);
    }

    private FallbackSettings read(String json, boolean disabledForRun) throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, json);
        return FallbackSettings.from(new SettingsStore(file, null).current(), disabledForRun);
    }

    @Test
    void defaults() throws IOException {
        FallbackSettings settings = read("{}");
        assertTrue(settings.enabled());
        assertEquals(Map.of(), settings.chains());
        assertEquals(RevertPolicy.COOLDOWN_EXPIRY, settings.revertPolicy());
        assertEquals(300_000, settings.hintedWaitCapMs());
        assertEquals(3_600_000, settings.probeBackMaxMs());
        assertEquals(60_000, settings.circuitCooldownMs());
        assertEquals(1_800_000, settings.circuitMaxCooldownMs());
        assertEquals(5_242_880, settings.logMaxBytes());
        assertTrue(settings.circuitsEnabled());
        assertEquals(List.of(), settings.warnings());
    }

    @Test
    void configuredValues() throws IOException {
        FallbackSettings settings = read("""
                {"retry": {"modelFallback": false, "fallbackRevertPolicy": "never", "hintedWaitCapMs": 1000,
                           "probeBackMaxMs": 2000,
                           "fallbackChains": {"anthropic/claude-opus-4.5:high": ["openai/gpt-5", "k3"], "gpt-5": []}},
                 "fallback": {"circuitCooldownMs": 0, "circuitMaxCooldownMs": 10, "log": {"maxBytes": 4096}}}""");
        assertFalse(settings.enabled());
        assertEquals(RevertPolicy.NEVER, settings.revertPolicy());
        assertEquals(1000, settings.hintedWaitCapMs());
        assertEquals(2000, settings.probeBackMaxMs());
        // keys with dots and slashes survive as keys, in file order; [] is kept as a tombstone
        assertEquals(List.of("anthropic/claude-opus-4.5:high", "gpt-5"), List.copyOf(settings.chains().keySet()));
        assertEquals(List.of("openai/gpt-5", "k3"), settings.chains().get("anthropic/claude-opus-4.5:high"));
        assertEquals(List.of(), settings.chains().get("gpt-5"));
        assertEquals(0, settings.circuitCooldownMs());
        assertFalse(settings.circuitsEnabled());
        assertEquals(10, settings.circuitMaxCooldownMs());
        assertEquals(4096, settings.logMaxBytes());
        assertEquals(List.of(), settings.warnings());
    }

    @Test
    void theResolvedMaximumCooldownIsNeverBelowTheCooldown() throws IOException {
        assertEquals(90_000, read("{\"fallback\": {\"circuitCooldownMs\": 90000, \"circuitMaxCooldownMs\": 5}}")
                .circuitMaxCooldownMs());
    }

    @Test
    void theRunCanDisableFallback() throws IOException {
        assertFalse(read("{\"retry\": {\"modelFallback\": true}}", true).enabled());
        assertTrue(FallbackSettings.disabledByRun(true, Map.of()));
        assertTrue(FallbackSettings.disabledByRun(false, Map.of("AGENTD_NO_FALLBACK", "1")));
        assertFalse(FallbackSettings.disabledByRun(false, Map.of("AGENTD_NO_FALLBACK", "0")));
        assertFalse(FallbackSettings.disabledByRun(false, Map.of()));
    }

    @Test
    void aProbeBackBoundatOrBelowTheCapResetsBoth() throws IOException {
        FallbackSettings settings = read("{\"retry\": {\"hintedWaitCapMs\": 5000, \"probeBackMaxMs\": 5000}}");
        assertEquals(300_000, settings.hintedWaitCapMs());
        assertEquals(3_600_000, settings.probeBackMaxMs());
        assertEquals(1, settings.warnings().size());
        assertTrue(settings.warnings().get(0).contains("retry.probeBackMaxMs"), settings.warnings().get(0));
    }

    @ParameterizedTest(name = "chains {0}")
    @CsvSource(delimiter = '|', value = {
        "[\"openai/gpt-5\"]                          | must be an object",
        "\"openai/gpt-5\"                            | must be an object",
        "{\"openai/gpt-5\": \"anthropic/x\"}         | is not a list of strings",
        "{\"a/b\": [\"c/d\"], \"openai/gpt-5\": [1]} | is not a list of strings",
    })
    void malformedChainsAreIgnoredWithAWarning(String chains, String problem) throws IOException {
        FallbackSettings settings = read("{\"retry\": {\"fallbackChains\": " + chains + "}}");
        assertEquals(Map.of(), settings.chains());
        assertEquals(1, settings.warnings().size(), settings.warnings().toString());
        assertTrue(settings.warnings().get(0).contains(problem), settings.warnings().get(0));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "retry.modelFallback          | \"yes\"",
        "retry.fallbackRevertPolicy   | \"sometimes\"",
        "retry.fallbackRevertPolicy   | 3",
        "retry.hintedWaitCapMs        | -1",
        "retry.probeBackMaxMs         | \"soon\"",
        "fallback.circuitCooldownMs   | -5",
        "fallback.circuitMaxCooldownMs| true",
        "fallback.log.maxBytes        | 0",
    })
    void malformedValuesFallBackToDefaultsWithAWarning(String path, String value) throws IOException {
        String[] parts = path.split("\\.");
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < parts.length - 1; i++) {
            json.append("{\"").append(parts[i]).append("\": ");
        }
        json.append("{\"").append(parts[parts.length - 1]).append("\": ").append(value).append("}");
        json.append("}".repeat(parts.length - 1));
        FallbackSettings settings = read(json.toString());
        FallbackSettings defaults = read("{}");
        assertEquals(defaults.enabled(), settings.enabled());
        assertEquals(defaults.revertPolicy(), settings.revertPolicy());
        assertEquals(defaults.hintedWaitCapMs(), settings.hintedWaitCapMs());
        assertEquals(defaults.probeBackMaxMs(), settings.probeBackMaxMs());
        assertEquals(defaults.circuitCooldownMs(), settings.circuitCooldownMs());
        assertEquals(defaults.circuitMaxCooldownMs(), settings.circuitMaxCooldownMs());
        assertEquals(defaults.logMaxBytes(), settings.logMaxBytes());
        assertEquals(1, settings.warnings().size(), settings.warnings().toString());
        assertTrue(settings.warnings().get(0).contains(path), settings.warnings().get(0));
    }
}
