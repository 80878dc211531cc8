package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.ThinkingLevel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The fallback design §2: canonicalization, memo, chain-key resolution and candidate order. */
class ChainsTest {
    private static final Predicate<String> NO_KEYS = p -> false;

    @SafeVarargs
    private static Map<String, List<String>> chains(Map.Entry<String, List<String>>... entries) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> entry : entries) {
            map.put(entry.getKey(), entry.getValue());
        }
        return map;
    }

    private static Map<String, List<String>> canonical(Map<String, List<String>> raw) {
        return Chains.canonicalize(raw, Fixtures.CATALOG, NO_KEYS).asMap();
    }

    @Test
    void qualifiedChainIsResolvedAndCasedLikeTheCatalog() {
        assertEquals(Map.of("anthropic/claude-opus-4-5", List.of("openai/gpt-5:high", "openrouter/qwen/qwen3-coder:exacto")),
                canonical(chains(Map.entry("Anthropic/claude-opus-4-5",
                        List.of("OpenAI/GPT-5:HIGH", "openrouter/qwen/qwen3-coder:exacto", "openai/gpt-9", "nonsense",
                                "openai/gpt-4o:high", "anthropic/claude-opus-4-5", "openai/gpt-5:high")))));
    }

    @Test
    void bareEntryFansOutToTwoProvidersModelMajorAndNeverOntoOpenRouter() {
        assertEquals(Map.of("openai/gpt-5", List.of("anthropic/claude-sonnet-4-5", "bedrock/global.anthropic.claude-sonnet-4-5",
                "anthropic/claude-opus-4-5", "openrouter/anthropic/claude-sonnet-4-5")),
                canonical(chains(Map.entry("openai/gpt-5",
                        List.of("claude-sonnet-4-5", "claude-opus-4-5", "openrouter/anthropic/claude-sonnet-4-5")))));
    }

    @Test
    void bareEntryFanOutFollowsCredentials() {
        Chains chains = Chains.canonicalize(chains(Map.entry("openai/gpt-5", List.of("claude-sonnet-4-5:low"))),
                Fixtures.CATALOG, Set.of("vertex")::contains);
        assertEquals(List.of("vertex/claude-sonnet-4-5-v2:low", "anthropic/claude-sonnet-4-5:low"),
                chains.entries("openai/gpt-5"));
    }

    @Test
    void bareKeyExpandsToEveryProviderAndNeverListsTheKeyModelItself() {
        assertEquals(chains(
                        Map.entry("openai/gpt-5:high", List.of("azure/gpt-5", "anthropic/claude-opus-4-5")),
                        Map.entry("azure/gpt-5:high", List.of("openai/gpt-5", "anthropic/claude-opus-4-5"))),
                canonical(chains(Map.entry("gpt-5:high", List.of("gpt-5", "anthropic/claude-opus-4-5")))));
    }

    @Test
    void explicitQualifiedKeyOverridesTheBareExpansionForThatProviderOnly() {
        Map<String, List<String>> result = canonical(chains(Map.entry("gpt-5", List.of("anthropic/claude-opus-4-5")),
                Map.entry("openai/gpt-5", List.of("ollama/llama3.1:8b"))));
        assertEquals(List.of("ollama/llama3.1:8b"), result.get("openai/gpt-5"));
        assertEquals(List.of("anthropic/claude-opus-4-5"), result.get("azure/gpt-5"));
    }

    @Test
    void tombstones() {
        Map.Entry<String, List<String>> bare = Map.entry("gpt-5", List.of("anthropic/claude-opus-4-5"));
        // A bare tombstone removes the family for every provider ...
        assertEquals(Map.of(), canonical(chains(bare, Map.entry("GPT-5", List.of()))));
        // ... a qualified one only for that provider ...
        assertEquals(Map.of("azure/gpt-5", List.of("anthropic/claude-opus-4-5")),
                canonical(chains(bare, Map.entry("openai/gpt-5", List.of()))));
        // ... and an explicit chain survives a bare tombstone.
        assertEquals(Map.of("openai/gpt-5", List.of("ollama/llama3.1:8b")),
                canonical(chains(Map.entry("gpt-5", List.of()), Map.entry("openai/gpt-5", List.of("ollama/llama3.1:8b")))));
        // A thinking-specific key is tombstoned through its base.
        assertEquals(Map.of(), canonical(chains(Map.entry("gpt-5:high", List.of("anthropic/claude-opus-4-5")),
                Map.entry("openai/gpt-5", List.of()), Map.entry("azure/gpt-5", List.of()))));
    }

    @Test
    void unknownKeysAndEmptyExpansionsVanish() {
        assertEquals(Map.of(), canonical(chains(Map.entry("default", List.of("openai/gpt-5")),
                Map.entry("openai/gpt-9", List.of("openai/gpt-5")),
                Map.entry("anthropic/claude-opus-4-5", List.of("nope/nothing")),
                Map.entry("openai/gpt-4o:high", List.of("openai/gpt-5")))));
    }

    @Test
    void memoReturnsTheSameObjectForTheSameContentWithoutRecomputing() {
        ChainsMemo memo = new ChainsMemo();
        Chains first = memo.get(chains(Map.entry("openai/gpt-5", List.of("claude-sonnet-4-5"))), Fixtures.CATALOG, NO_KEYS);
        Chains again = memo.get(chains(Map.entry("openai/gpt-5", List.of("claude-sonnet-4-5"))), FallbackCatalog.of(Fixtures.MODELS),
                p -> false);
        assertSame(first, again);
        assertEquals(1, memo.computations());

        Chains credentialed = memo.get(chains(Map.entry("openai/gpt-5", List.of("claude-sonnet-4-5"))), Fixtures.CATALOG,
                "vertex"::equals);
        assertNotSame(first, credentialed);
        assertEquals("vertex/claude-sonnet-4-5-v2", credentialed.entries("openai/gpt-5").get(0));
        Chains edited = memo.get(chains(Map.entry("openai/gpt-5", List.of("claude-opus-4-5"))), Fixtures.CATALOG,
                "vertex"::equals);
        assertEquals(List.of("anthropic/claude-opus-4-5"), edited.entries("openai/gpt-5"));
        assertEquals(3, memo.computations());
        memo.clear();
        memo.get(chains(Map.entry("openai/gpt-5", List.of("claude-opus-4-5"))), Fixtures.CATALOG, "vertex"::equals);
        assertEquals(4, memo.computations());
    }

    @Test
    void withoutChainsTheMemoAsksForNoCredential() {
        ChainsMemo memo = new ChainsMemo();
        int[] asked = {0};
        Chains none = memo.get(Map.of(), Fixtures.CATALOG, provider -> {
            asked[0]++;
            return false;
        });
        assertSame(Chains.EMPTY, none);
        assertEquals(0, asked[0]);
        assertEquals(0, memo.computations());
    }

    private static final Chains WALK = Chains.canonicalize(chains(
            Map.entry("anthropic/claude-opus-4-5:high", List.of("openai/gpt-5:high", "azure/gpt-5")),
            Map.entry("anthropic/claude-opus-4-5", List.of("openai/gpt-5", "azure/gpt-5:low", "ollama/llama3.1:8b"))),
            Fixtures.CATALOG, NO_KEYS);

    @Test
    void keyForPrefersTheExactThinkingKeyThenTheBaseThenTheEpisode() {
        assertEquals(Optional.of("anthropic/claude-opus-4-5:high"), WALK.keyFor(Fixtures.OPUS, ThinkingLevel.HIGH, null));
        assertEquals(Optional.of("anthropic/claude-opus-4-5"), WALK.keyFor(Fixtures.OPUS, ThinkingLevel.LOW, null));
        assertEquals(Optional.of("anthropic/claude-opus-4-5"), WALK.keyFor(Fixtures.OPUS, null, null));
        // The last rung has no chain of its own: it keeps walking the episode's chain ...
        assertEquals(Optional.of("anthropic/claude-opus-4-5:high"),
                WALK.keyFor(Fixtures.AZURE_GPT5, ThinkingLevel.LOW, "anthropic/claude-opus-4-5:high"));
        // ... and without an episode (or with a stale key) it never falls back.
        assertEquals(Optional.empty(), WALK.keyFor(Fixtures.AZURE_GPT5, ThinkingLevel.LOW, null));
        assertEquals(Optional.empty(), WALK.keyFor(Fixtures.AZURE_GPT5, ThinkingLevel.LOW, "gone/model"));
        assertTrue(WALK.ownKey(Fixtures.AZURE_GPT5, null).isEmpty());
    }

    @Test
    void candidatesAfterTheCurrentEntryExactThenByBaseElseAll() {
        String key = "anthropic/claude-opus-4-5";
        assertEquals(List.of("openai/gpt-5", "azure/gpt-5:low", "ollama/llama3.1:8b"), WALK.candidatesAfter(key, key));
        assertEquals(List.of("ollama/llama3.1:8b"), WALK.candidatesAfter(key, "AZURE/gpt-5:LOW"));
        assertEquals(List.of("ollama/llama3.1:8b"), WALK.candidatesAfter(key, "azure/gpt-5:high"));
        assertEquals(List.of("azure/gpt-5:low", "ollama/llama3.1:8b"), WALK.candidatesAfter(key, "openai/gpt-5:xhigh"));
        assertEquals(List.of(), WALK.candidatesAfter(key, "ollama/llama3.1:8b"));
        assertEquals(List.of("openai/gpt-5", "azure/gpt-5:low", "ollama/llama3.1:8b"),
                WALK.candidatesAfter(key, "someone/else"));
        assertEquals(List.of(), WALK.candidatesAfter("missing", key));
    }
}
