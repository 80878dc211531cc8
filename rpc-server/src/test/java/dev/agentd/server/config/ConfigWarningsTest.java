package dev.agentd.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 point 6: config mistakes are warned with file, place and the closest known key. */
class ConfigWarningsTest {
    @TempDir
    Path dir;

    private static List<String> modelsWarnings(String json) {
        return ModelsConfig.parse(json, "models.json").warnings();
    }

    @Test
    void aMalformedModelsFileNamesLineAndColumn() {
        List<String> warnings = modelsWarnings("{\"providers\":{\n\"a\":{},\n}}");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("malformed JSON: models.json:3:"), warnings.toString());
    }

    @Test
    void unknownModelsKeysAreWarnedWithTheClosestKnownOne() {
        assertEquals(List.of("models.json: unknown key 'provider' (did you mean 'providers'?); ignored"),
                modelsWarnings("{\"provider\":{}}"));
        List<String> warnings = modelsWarnings("""
                {"providers":{"ollama":{"baseUrl":"http://127.0.0.1:11434/v1","api":"openai-completions",
                  "apikey":"x","models":[{"id":"m","contextWindw":8}]}}}""");
        assertEquals(List.of("models.json: provider 'ollama' unknown key 'apikey' (did you mean 'apiKey'?); ignored",
                "models.json: provider 'ollama' model 'm' unknown key 'contextWindw' (did you mean 'contextWindow'?); "
                        + "ignored"), warnings);
    }

    @Test
    void onlyCustomProvidersWithoutAKeyAreKeyless() {
        ModelsConfig config = ModelsConfig.parse("""
                {"providers":{
                  "ollama":{"baseUrl":"http://127.0.0.1:11434/v1","api":"openai-completions","models":[{"id":"a"}]},
                  "vllm":{"baseUrl":"http://10.0.0.5:8000/v1","api":"openai-completions","apiKey":"K",
                    "models":[{"id":"b"}]},
                  "openai":{"baseUrl":"http://127.0.0.1:9/v1","api":"openai-completions","models":[{"id":"c"}]},
                  "anthropic":{"baseUrl":"http://proxy.local"}}}""", "models.json");
        assertEquals(Set.of("ollama"), config.keylessProviders(Set.of("openai", "anthropic")));
    }

    @Test
    void unknownSettingsKeysAreWarnedOnceWithTheClosestKnownOne() throws IOException {
        Path global = Files.writeString(dir.resolve("settings.json"),
                "{\"retry\":{\"maxRetry\":9,\"basedelayms\":100,\"provider\":{\"connectTimeoutMS\":5},"
                        + "\"fallbackChains\":{\"any\":[\"x\"]}},\"steeringmode\":\"all\",\"zzz\":1}");
        SettingsStore store = new SettingsStore(global, null);
        store.reload();
        String file = global.toString();
        assertEquals(List.of(
                "settings file " + file + ": unknown key 'retry.maxRetry' (did you mean 'retry.maxRetries'?); ignored",
                "settings file " + file + ": unknown key 'retry.basedelayms' (did you mean 'retry.baseDelayMs'?); "
                        + "ignored",
                "settings file " + file + ": unknown key 'retry.provider.connectTimeoutMS' (did you mean "
                        + "'retry.provider.connectTimeoutMs'?); ignored",
                "settings file " + file + ": unknown key 'steeringmode' (did you mean 'steeringMode'?); ignored",
                "settings file " + file + ": unknown key 'zzz'; ignored"), store.warnings());
        assertEquals(3, store.current().integer("retry.maxRetries", 3, 0, 100), "the default stays in force");
    }

    @Test
    void anUnknownKeyIsEscapedAndCutSoItCannotForgeALogLine() throws IOException {
        Path global = Files.writeString(dir.resolve("settings.json"),
                "{\"x\\r\\n12345 [WARN] forged\\u0000\":1,\"" + "k".repeat(40_000) + "\":2}");
        List<String> warnings = new SettingsStore(global, null).warnings();
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("'x\\r\\n12345 [WARN] forged\\u0000'"), warnings.get(0));
        warnings.forEach(w -> assertTrue(w.indexOf('\n') < 0 && w.indexOf('\r') < 0 && w.indexOf(0) < 0, w));
        assertTrue(warnings.get(1).length() < 400, "a 40 000-character key is cut: " + warnings.get(1).length());
    }

    @Test
    void aMalformedSettingsFileNamesLineAndColumn() throws IOException {
        Path global = Files.writeString(dir.resolve("settings.json"), "{\"retry\":{\n}\n\"x\":1}");
        List<String> warnings = new SettingsStore(global, null).warnings();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("settings file is malformed: " + global + ":3:"), warnings.toString());
    }
}
