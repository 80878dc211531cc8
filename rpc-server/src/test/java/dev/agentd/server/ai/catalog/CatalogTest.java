package dev.agentd.server.ai.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shipped models.jsonl and the lazy, validating reader of it (issue 25 item 5). */
class CatalogTest {
    private static final String HEADER = "{\"catalog\":\"t\",\"source\":\"@earendil-works/pi-ai@1.6.0\","
            + "\"defaults\":\"@earendil-works/pi-coding-agent@1.6.0\",\"generated\":\"2026-12-02\"}";
    private static final String ANTHROPIC = "{\"provider\":\"anthropic\",\"default\":\"b\",\"api\":\"anthropic-messages\","
            + "\"baseUrl\":\"https://a\",\"models\":[{\"id\":\"a\",\"name\":\"A\",\"cost\":[1,2,0.1,1.25],"
            + "\"contextWindow\":200000,\"maxTokens\":64000},{\"id\":\"b\",\"name\":\"B\",\"reasoning\":true,"
            + "\"input\":[\"text\",\"image\"],\"cost\":[3,15,0.3,3.75],\"contextWindow\":1000000,\"maxTokens\":128000,"
            + "\"thinking\":[\"max\",\"low\",\"high\"]}]}";
    private static final String OPENAI = "{\"provider\":\"openai\",\"default\":\"g\",\"api\":\"openai-responses\","
            + "\"baseUrl\":\"https://o\",\"models\":[{\"id\":\"g\",\"api\":\"openai-completions\",\"baseUrl\":\"https://c\","
            + "\"cost\":[1,1,0,0],\"contextWindow\":1,\"maxTokens\":1}]}";

    @Test
    void theShippedCatalogParsesAndEveryLineValidates() {
        Catalog shipped = Catalog.builtin();
        Catalog.Header header = shipped.header();
        assertTrue(header.source().startsWith("@earendil-works/pi-ai@"), header.toString());
        assertTrue(header.generated().matches("\\d{4}-\\d{2}-\\d{2}"), header.toString());
        Set<String> apis = Set.of("anthropic-messages", "openai-completions", "openai-responses",
                "azure-openai-responses", "google-generative-ai", "google-vertex", "bedrock-converse-stream");
        assertEquals(List.of("anthropic", "openai", "google", "openrouter", "groq", "xai", "deepseek", "cerebras",
                "together", "fireworks", "azure", "amazon-bedrock", "google-vertex"), shipped.providers());
        int count = 0;
        for (String provider : shipped.providers()) {
            List<Model> models = shipped.models(provider);
            Set<String> ids = new HashSet<>();
            for (Model model : models) {
                assertTrue(ids.add(model.id()), "unique per provider: " + model.selector());
                assertEquals(provider, model.provider());
                assertTrue(apis.contains(model.api()), model.selector() + " " + model.api());
                assertTrue(model.contextWindow() > 0 && model.maxTokens() > 0, model.selector());
                Model.Cost cost = model.cost();
                assertTrue(cost.input() >= 0 && cost.output() >= 0 && cost.cacheRead() >= 0 && cost.cacheWrite() >= 0);
                List<ThinkingLevel> levels = shipped.thinkingLevels(model).orElse(List.of(ThinkingLevel.OFF));
                assertFalse(levels.isEmpty(), model.selector());
            }
            String defaultId = shipped.defaultId(provider).orElseThrow();
            assertEquals(defaultId, models.get(0).id(), "the default of " + provider + " exists and comes first");
            count += models.size();
        }
        assertTrue(count > 500, "pi 1.6 has ~840 usable models: " + count);
        assertEquals("claude-opus-5-5", shipped.defaultId("anthropic").orElseThrow(), "pi 1.6's default");
        assertEquals("us.anthropic.claude-opus-5-5", shipped.defaultId("amazon-bedrock").orElseThrow());
        assertTrue(shipped.models("openai").stream().allMatch(model -> model.api().equals("openai-responses")),
                "pi 1.6 moved OpenAI's models to the Responses api");
    }

    @Test
    void aProviderLineIsParsedOnlyWhenThatProviderIsAskedFor() {
        Catalog catalog = Catalog.of(String.join("\n", HEADER, ANTHROPIC, OPENAI, "{\"provider\":\"broken\",nonsense"),
                "test");
        assertEquals(List.of("anthropic", "openai", "broken"), catalog.providers(), "names without parsing");
        assertEquals(0, catalog.parses());
        List<Model> anthropic = catalog.models("anthropic");
        assertEquals(1, catalog.parses(), "only the anthropic line");
        assertEquals(List.of("b", "a"), anthropic.stream().map(Model::id).toList(), "the default first");
        catalog.models("anthropic");
        catalog.defaultId("anthropic");
        assertEquals(1, catalog.parses(), "parsed once");
        assertTrue(catalog.models("nobody").isEmpty());
        assertEquals(1, catalog.parses());
        IllegalStateException broken = assertThrows(IllegalStateException.class, catalog::all);
        assertTrue(broken.getMessage().contains("test line 4"), broken.getMessage());
    }

    @Test
    void modelsTakeTheLineDefaultsUnlessTheyStateTheirOwn() {
        Catalog catalog = Catalog.of(String.join("\n", HEADER, ANTHROPIC, OPENAI), "test");
        Model a = catalog.models("anthropic").get(1);
        assertEquals(new Model("a", "A", "anthropic-messages", "anthropic", "https://a", false, List.of("text"),
                new Model.Cost(1, 2, 0.1, 1.25), 200_000, 64_000), a);
        Model g = catalog.models("openai").get(0);
        assertEquals("openai-completions", g.api());
        assertEquals("https://c", g.baseUrl());
    }

    @Test
    void thinkingLevelsComeFromTheCatalogOnlyForTheCatalogsOwnModel() {
        Catalog catalog = Catalog.of(String.join("\n", HEADER, ANTHROPIC), "test");
        Model b = catalog.models("anthropic").get(0);
        assertEquals(List.of(ThinkingLevel.LOW, ThinkingLevel.HIGH, ThinkingLevel.MAX),
                catalog.thinkingLevels(b).orElseThrow(), "sorted, as pi listed them");
        Model otherApi = new Model("b", "B", "openai-completions", "anthropic", "https://x", true, null, null, 1, 1);
        assertTrue(catalog.thinkingLevels(otherApi).isEmpty(), "a models.json model of another api says nothing");
        assertTrue(catalog.thinkingLevels(catalog.models("anthropic").get(1)).isEmpty(), "no reasoning: none");
    }

    @Test
    void aCorruptLineFailsNamingTheLineAndTheProblem() {
        List<String> bad = List.of(
                ANTHROPIC.replace("\"contextWindow\":200000", "\"contextWindow\":0"),
                ANTHROPIC.replace("[1,2,0.1,1.25]", "[1,-2,0.1,1.25]"),
                ANTHROPIC.replace("\"id\":\"a\"", "\"id\":\"b\""),
                ANTHROPIC.replace("\"default\":\"b\"", "\"default\":\"zz\""),
                ANTHROPIC.replace("\"max\",", "\"maximal\","),
                ANTHROPIC.replace("[1,2,0.1,1.25]", "[1,2]"),
                ANTHROPIC.substring(0, 80));
        List<String> problems = List.of("contextWindow", "non-negative", "appears twice", "not among the models",
                "unknown thinking level", "cost must be", "not JSON");
        for (int i = 0; i < bad.size(); i++) {
            Catalog catalog = Catalog.of(HEADER + "\n" + bad.get(i), "models.jsonl");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> catalog.models("anthropic"));
            assertTrue(e.getMessage().startsWith("built-in model catalog models.jsonl line 2: "), e.getMessage());
            assertTrue(e.getMessage().contains(problems.get(i)), e.getMessage());
        }
        IllegalStateException noName = assertThrows(IllegalStateException.class,
                () -> Catalog.of(HEADER + "\n[1,2]", "models.jsonl"));
        assertTrue(noName.getMessage().contains("line 2"), noName.getMessage());
        IllegalStateException twice = assertThrows(IllegalStateException.class,
                () -> Catalog.of(HEADER + "\n" + OPENAI + "\n" + OPENAI, "models.jsonl"));
        assertTrue(twice.getMessage().contains("line 3") && twice.getMessage().contains("twice"), twice.getMessage());
    }
}
