package dev.agentd.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.catalog.Catalog;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The built-in catalog under models.json, as the daemon wires them (issue 25 item 5). */
class BuiltinCatalogTest {
    private static final String HEADER = "{\"catalog\":\"t\",\"source\":\"s\",\"defaults\":\"d\",\"generated\":\"2026-12-02\"}";
    private static final String ANTHROPIC = "{\"provider\":\"anthropic\",\"default\":\"x5\",\"api\":\"anthropic-messages\","
            + "\"baseUrl\":\"https://api.anthropic.com\",\"models\":[{\"id\":\"x5\",\"cost\":[5,25,0.5,6.25],"
            + "\"contextWindow\":1000000,\"maxTokens\":128000},{\"id\":\"x4\",\"cost\":[3,15,0.3,3.75],"
            + "\"contextWindow\":200000,\"maxTokens\":64000}]}";
    private static final String OPENAI = "{\"provider\":\"openai\",\"default\":\"g\",\"api\":\"openai-responses\","
            + "\"baseUrl\":\"https://api.openai.com/v1\",\"models\":[{\"id\":\"g\",\"cost\":[1,1,0,0],"
            + "\"contextWindow\":1,\"maxTokens\":1}]}";

    @Test
    void everyShippedModelSpeaksAnApiAgentdKnows() {
        Set<String> known = new HashSet<>(ModelsConfig.APIS);
        known.add("google-vertex"); // being added beside this catalog; its models are listed already
        for (Model model : Catalog.builtin().all()) {
            assertTrue(known.contains(model.api()), model.selector() + " speaks " + model.api());
        }
    }

    @Test
    void modelsJsonOverridesTheCatalogAndOnlyTheAskedProviderIsParsed() {
        Catalog catalog = Catalog.of(String.join("\n", HEADER, ANTHROPIC, OPENAI), "test");
        ModelsConfig config = ModelsConfig.parse("""
                {"providers": {
                  "anthropic": {"baseUrl": "https://proxy.example", "api": "anthropic-messages", "apiKey": "K",
                    "models": [{"id": "x5", "name": "Mine", "contextWindow": 5000, "maxTokens": 100}]},
                  "openai": {"baseUrl": "https://gateway.example/v1"}
                }}""", "models.json");
        assertEquals(List.of(), config.warnings());
        ModelRegistry registry = ModelRegistry.withCatalog(catalog, config::adjust, config.models(), model -> Map.of());
        assertEquals(List.of("anthropic", "openai"), registry.providers());
        assertEquals(0, catalog.parses(), "provider names come without parsing");

        Model mine = registry.find("anthropic", "x5").orElseThrow();
        assertEquals("Mine", mine.name(), "same provider and id: the models.json model wins");
        assertEquals(5000, mine.contextWindow());
        assertEquals(1, catalog.parses(), "asking for anthropic parses the anthropic line only");
        assertEquals(List.of("x5", "x4"), registry.ofProvider("anthropic").stream().map(Model::id).toList(),
                "the catalog's default first even when models.json replaced it");
        assertEquals("https://api.anthropic.com", registry.find("anthropic", "x4").orElseThrow().baseUrl(),
                "an entry with models does not move the built-ins");

        assertEquals("https://gateway.example/v1", registry.find("openai", "g").orElseThrow().baseUrl(),
                "an entry without models overrides the built-ins' baseUrl");
        assertEquals(2, catalog.parses());
        assertEquals(List.of("anthropic/x4", "openai/g", "anthropic/x5"),
                registry.all().stream().map(Model::selector).toList(), "mergeWith's order: catalog, then custom");
        assertEquals(config.mergeWith(catalog.all()), registry.all());
    }

    @Test
    void aBareIdReadsTheCatalogOnlyUntilItIsFoundAndKeepsTheListOrder() {
        Catalog catalog = Catalog.of(String.join("\n", HEADER, ANTHROPIC, OPENAI), "test");
        ModelsConfig config = ModelsConfig.parse("""
                {"providers": {"mine": {"baseUrl": "https://mine.example", "api": "openai-completions",
                  "models": [{"id": "g"}, {"id": "own"}]}}}""", "models.json");
        ModelRegistry registry = ModelRegistry.withCatalog(catalog, config::adjust, config.models(), model -> Map.of());
        assertEquals("anthropic/x4", registry.resolve("x4").orElseThrow().model().selector());
        assertEquals(1, catalog.parses(), "found in the first line: the second is not read");
        assertEquals("openai/g", registry.resolve("g").orElseThrow().model().selector(),
                "the built-in one comes first, as in the full list");
        assertEquals("mine/own", registry.resolve("own:high").orElseThrow().model().selector());
        assertEquals(2, catalog.parses());
    }
}
