package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.runtime.LogText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * N13: hostile fallback chains in a settings file yield bounded, escaped warnings: chains and
 * entries are capped, selectors are escaped and cut, and one file gives at most
 * {@link LogText#MAX_WARNINGS} warnings plus one counting the rest.
 */
class ChainCapsTest {
    @TempDir
    Path dir;

    private ObjectNode settingsWith(ObjectNode chains) {
        ObjectNode root = Json.mapper().createObjectNode();
        root.putObject("retry").set("fallbackChains", chains);
        return root;
    }

    private FallbackSettings read(ObjectNode root) throws Exception {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, Json.mapper().writeValueAsString(root));
        return FallbackSettings.from(new SettingsStore(file, null).current());
    }

    @Test
    void tenThousandEntriesAndKeysGiveABoundedNumberOfWarnings() throws Exception {
        ObjectNode chains = Json.mapper().createObjectNode();
        ArrayNode huge = chains.putArray("anthropic/claude-opus-4-5");
        for (int i = 0; i < 10_000; i++) {
            huge.add("unknown/model-" + i);
        }
        for (int i = 0; i < 10_000; i++) {
            chains.putArray("nobody/key-" + i).add("openai/gpt-5");
        }
        FallbackSettings settings = read(settingsWith(chains));
        assertEquals(FallbackSettings.MAX_CHAINS, settings.chains().size());
        assertEquals(FallbackSettings.MAX_CHAIN_ENTRIES, settings.chains().get("anthropic/claude-opus-4-5").size());

        List<String> warnings = Chains.validate(chains, Fixtures.CATALOG);
        assertEquals(LogText.MAX_WARNINGS + 1, warnings.size(), String.join("\n", warnings));
        assertEquals(FallbackSettings.tooManyChains(20_000 / 2 + 1), warnings.get(0));
        assertTrue(warnings.get(1).contains("has 10000 entries; only the first 32 are used"), warnings.get(1));
        assertTrue(warnings.get(LogText.MAX_WARNINGS).startsWith("… and "), warnings.get(LogText.MAX_WARNINGS));
        assertTrue(Chains.canonicalize(settings.chains(), Fixtures.CATALOG, p -> true).asMap().size()
                <= FallbackSettings.MAX_CHAINS);
    }

    @Test
    void selectorsInWarningsAreEscapedAndCut() throws Exception {
        ObjectNode chains = Json.mapper().createObjectNode();
        chains.putArray("anthropic/claude-opus-4-5").add("x/y\r\n12345 [WARN] forged log line\u0000")
                .add("z/" + "w".repeat(1_000_000));
        chains.putArray("bad\nkey").add("openai/gpt-5");
        List<String> warnings = Chains.validate(chains, Fixtures.CATALOG);
        assertEquals(3, warnings.size(), String.join("\n", warnings));
        for (String warning : warnings) {
            assertTrue(warning.chars().noneMatch(c -> c < 0x20), warning);
            assertTrue(warning.length() < 400, "cut: " + warning.length());
        }
        assertTrue(warnings.get(0).contains("\"x/y\\r\\n12345 [WARN] forged log line\\u0000\""), warnings.get(0));
        ObjectNode malformed = Json.mapper().createObjectNode();
        malformed.put("evil\r\nkey", "not a list");
        String shape = read(settingsWith(malformed)).warnings().get(0);
        assertTrue(shape.contains("\"evil\\r\\nkey\""), shape);
    }

    @Test
    void aSetChainOfTooManyEntriesIsRefusedByValidation() {
        ObjectNode node = Json.mapper().createObjectNode();
        ArrayNode entries = node.putArray("anthropic/claude-opus-4-5");
        for (int i = 0; i < FallbackSettings.MAX_CHAIN_ENTRIES + 1; i++) {
            entries.add(i % 2 == 0 ? "openai/gpt-5" : "anthropic/claude-sonnet-4-5");
        }
        assertEquals(List.of(FallbackSettings.tooLong("anthropic/claude-opus-4-5", 33)),
                Chains.validate(node, Fixtures.CATALOG));
    }
}
