package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.catalog.Catalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SPEC §2: {@code --model} accepts id, provider/id and provider/id:thinking. */
class ModelRegistryTest {
    private static Model model(String provider, String id, boolean reasoning) {
        return new Model(id, id, "openai-completions", provider, "http://x", reasoning, null, null, 1000, 100);
    }

    private final ModelRegistry registry = new ModelRegistry(List.of(model("openai", "gpt-5", true),
            model("openrouter", "gpt-5", true), model("ollama", "llama3.1:8b", false),
            model("ollama", "qwen3:max", true)));

    @Test
    void resolvesEveryForm() {
        assertEquals("openai", registry.resolve("gpt-5").orElseThrow().model().provider(), "first match wins");
        assertEquals("openrouter", registry.resolve("openrouter/gpt-5").orElseThrow().model().provider());
        ModelRegistry.Selection withLevel = registry.resolve("openrouter/gpt-5:high").orElseThrow();
        assertEquals(ThinkingLevel.HIGH, withLevel.thinkingLevel());
        ModelRegistry.Selection colonInId = registry.resolve("ollama/llama3.1:8b").orElseThrow();
        assertEquals("llama3.1:8b", colonInId.model().id());
        assertNull(colonInId.thinkingLevel(), "':8b' is part of the id, not a level");
        assertTrue(registry.resolve("nope/none").isEmpty());
        assertTrue(registry.resolve("openai/gpt-5:maximum").isEmpty(), "only exact level names split");
        assertTrue(registry.resolve(" ").isEmpty());
    }

    @Test
    void thinkingLevelsAreClampedToTheModel() {
        Model plain = model("ollama", "llama3.1:8b", false);
        assertEquals(ThinkingLevel.OFF, ThinkingSupport.clamp(plain, ThinkingLevel.HIGH));
        Model reasoning = model("openai", "gpt-4.1", true);
        assertEquals(ThinkingLevel.HIGH, ThinkingSupport.clamp(reasoning, ThinkingLevel.XHIGH));
        assertEquals(ThinkingLevel.XHIGH, ThinkingSupport.clamp(model("openai", "gpt-5", true), ThinkingLevel.XHIGH));
    }

    @Test
    void maxIsALevelSuffixUnlessTheIdItselfEndsThatWay() {
        ModelRegistry.Selection max = registry.resolve("openai/gpt-5:max").orElseThrow();
        assertEquals("gpt-5", max.model().id());
        assertEquals(ThinkingLevel.MAX, max.thinkingLevel());
        assertEquals(ThinkingLevel.XHIGH, registry.resolve("gpt-5:xhigh").orElseThrow().thinkingLevel());
        // there is no model "qwen3", so "qwen3:max" is the whole id
        ModelRegistry.Selection whole = registry.resolve("ollama/qwen3:max").orElseThrow();
        assertEquals("qwen3:max", whole.model().id());
        assertNull(whole.thinkingLevel());
        ModelRegistry.Selection inId = registry.resolve("ollama/qwen3:max:high").orElseThrow();
        assertEquals("qwen3:max", inId.model().id());
        assertEquals(ThinkingLevel.HIGH, inId.thinkingLevel());
    }

    @Test
    void maxClampsDownOnModelsWithoutIt() {
        Model opus46 = model("anthropic", "claude-opus-4-6", true);
        assertEquals(ThinkingLevel.MAX, ThinkingSupport.clamp(opus46, ThinkingLevel.MAX));
        assertEquals(ThinkingLevel.XHIGH, ThinkingSupport.clamp(model("openai", "gpt-5", true), ThinkingLevel.MAX));
        assertEquals(ThinkingLevel.HIGH, ThinkingSupport.clamp(model("anthropic", "claude-sonnet-4-5", true),
                ThinkingLevel.MAX));
        assertEquals(ThinkingLevel.OFF, ThinkingSupport.clamp(model("ollama", "llama3.1:8b", false),
                ThinkingLevel.MAX));
        assertEquals(List.of(ThinkingLevel.OFF, ThinkingLevel.MINIMAL, ThinkingLevel.LOW, ThinkingLevel.MEDIUM,
                ThinkingLevel.HIGH, ThinkingLevel.XHIGH, ThinkingLevel.MAX), ThinkingSupport.levels(opus46),
                "the cycle order: max last, then back to off");
        assertEquals(List.of(ThinkingLevel.OFF, ThinkingLevel.MINIMAL, ThinkingLevel.LOW, ThinkingLevel.MEDIUM,
                ThinkingLevel.HIGH, ThinkingLevel.XHIGH), ThinkingSupport.levels(model("openai", "gpt-5", true)));
    }

    @Test
    void aBuiltInModelHasTheLevelsPisCatalogGivesIt() {
        Catalog shipped = Catalog.builtin();
        Model opus46 = shipped.models("anthropic").stream().filter(m -> m.id().equals("claude-opus-4-6")).findFirst()
                .orElseThrow();
        assertEquals(List.of(ThinkingLevel.OFF, ThinkingLevel.MINIMAL, ThinkingLevel.LOW, ThinkingLevel.MEDIUM,
                ThinkingLevel.HIGH, ThinkingLevel.MAX), ThinkingSupport.levels(opus46), "pi 1.6: max but no xhigh");
        assertEquals(ThinkingLevel.HIGH, ThinkingSupport.clamp(opus46, ThinkingLevel.XHIGH));
        Model alwaysThinks = shipped.models("anthropic").get(0);
        assertEquals("claude-opus-5-5", alwaysThinks.id());
        assertEquals(ThinkingLevel.LOW, ThinkingSupport.levels(alwaysThinks).get(0), "no off");
        assertEquals(ThinkingLevel.LOW, ThinkingSupport.clamp(alwaysThinks, ThinkingLevel.OFF),
                "a model that cannot turn thinking off gets its lowest level");
        Model gpt5 = ModelRegistry.withCatalog(shipped, models -> models, List.of(), m -> java.util.Map.of())
                .find("openai", "gpt-5").orElseThrow();
        assertEquals(ThinkingLevel.MINIMAL, ThinkingSupport.clamp(gpt5, ThinkingLevel.OFF));
        assertEquals(ThinkingLevel.HIGH, ThinkingSupport.clamp(gpt5, ThinkingLevel.MAX));
        // The same id from models.json over another api is not the catalog's model: the id rules apply.
        assertEquals(ThinkingLevel.XHIGH, ThinkingSupport.clamp(model("openai", "gpt-5", true), ThinkingLevel.MAX));
    }
}
