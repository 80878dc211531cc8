package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.ThinkingLevel;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The fallback design §2: selector syntax, and resolution against the catalog. */
class SelectorTest {

    @ParameterizedTest(name = "{0} -> {1} | {2} | {3}")
    @CsvSource(delimiter = '|', value = {
        // raw                                  | provider   | id                          | thinking
        "anthropic/claude-opus-4-5               | anthropic  | claude-opus-4-5             | ",
        "anthropic/claude-opus-4-5:high          | anthropic  | claude-opus-4-5             | high",
        "' anthropic/claude-opus-4-5:HIGH '      | anthropic  | claude-opus-4-5             | high",
        "openrouter/qwen/qwen3-coder:exacto      | openrouter | qwen/qwen3-coder:exacto     | ",
        "openrouter/qwen/qwen3-coder:exacto:low  | openrouter | qwen/qwen3-coder:exacto     | low",
        "ollama/llama3.1:8b                      | ollama     | llama3.1:8b                 | ",
        "ollama/llama3.1:8b:off                  | ollama     | llama3.1:8b                 | off",
        "p/a:b:xhigh                             | p          | a:b                         | xhigh",
    })
    void qualified(String raw, String provider, String id, String thinking) {
        Selector.Qualified parsed = Selector.parseQualified(raw).orElseThrow();
        assertEquals(provider, parsed.provider());
        assertEquals(id, parsed.id());
        assertEquals(Optional.ofNullable(thinking).map(t -> ThinkingLevel.parse(t).orElseThrow()), parsed.thinking());
        assertEquals(provider + "/" + id, parsed.base());
        assertEquals(Selector.parse(raw), Optional.of(parsed));
    }

    @ParameterizedTest(name = "not qualified: [{0}]")
    @ValueSource(strings = {"", "  ", "openai/", "/gpt-5", "openai/gpt-*", "default", "gpt-5:high", ":high"})
    void notQualified(String raw) {
        assertTrue(Selector.parseQualified(raw).isEmpty(), raw);
    }

    @ParameterizedTest(name = "{0} -> family {1} | {2}")
    @CsvSource(delimiter = '|', value = {
        "claude-sonnet-4-5          | claude-sonnet-4-5 | ",
        "Claude-Sonnet-4-5:Medium   | claude-sonnet-4-5 | medium",
        "llama3.1:8b                | llama3.1:8b       | ",
        "k3:minimal                 | k3                | minimal",
    })
    void bare(String raw, String family, String thinking) {
        Selector.Bare parsed = Selector.parseBare(raw).orElseThrow();
        assertEquals(family, parsed.family());
        assertEquals(Optional.ofNullable(thinking).map(t -> ThinkingLevel.parse(t).orElseThrow()), parsed.thinking());
        assertEquals(parsed.thinking().map(t -> family + ":" + t.wire()).orElse(family), parsed.format());
    }

    @ParameterizedTest(name = "not bare: [{0}]")
    @ValueSource(strings = {"", "   ", ":high", "claude-*", "anthropic/claude-opus-4-5"})
    void notBare(String raw) {
        assertTrue(Selector.parseBare(raw).isEmpty(), raw);
    }

    @Test
    void formatsAndStripsThinking() {
        assertEquals("anthropic/claude-opus-4-5:high",
                Selector.format(Fixtures.OPUS, Optional.of(ThinkingLevel.HIGH)));
        assertEquals("anthropic/claude-opus-4-5", Selector.format(Fixtures.OPUS, Optional.empty()));
        assertEquals("openrouter/qwen/qwen3-coder:exacto", Selector.stripThinking("openrouter/qwen/qwen3-coder:exacto"));
        assertEquals("anthropic/claude-opus-4-5", Selector.stripThinking("anthropic/claude-opus-4-5:xhigh"));
    }

    
    @Test
    void maxLevelParses() {
        ThinkingLevel max = ThinkingLevel.parse("max").orElseThrow();
        Selector.Qualified parsed = Selector.parseQualified("anthropic/claude-opus-4-5:max").orElseThrow();
        assertEquals(Optional.of(max), parsed.thinking());
        assertEquals("claude-opus-4-5", parsed.id());
    }

    @ParameterizedTest(name = "resolve {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "anthropic/claude-opus-4-5          | anthropic/claude-opus-4-5",
        "ANTHROPIC/Claude-Opus-4-5:high     | anthropic/claude-opus-4-5:high",
        "openrouter/qwen/qwen3-coder:exacto | openrouter/qwen/qwen3-coder:exacto",
        "ollama/llama3.1:8b                 | ollama/llama3.1:8b",
        "ollama/llama3.1:8b:off             | ollama/llama3.1:8b:off",
    })
    void resolvesAgainstTheCatalog(String raw, String canonical) {
        assertEquals(canonical, Fixtures.CATALOG.resolve(raw).orElseThrow().format());
    }

    @ParameterizedTest(name = "unknown: [{0}]")
    @ValueSource(strings = {"anthropic/claude-opus-9", "openai/claude-opus-4-5", "openai/", "gpt-5", "openai/gpt-*",
        "openrouter/qwen/qwen3-coder"})
    void unknownSelectorsDoNotResolve(String raw) {
        assertTrue(Fixtures.CATALOG.resolve(raw).isEmpty(), raw);
    }

    @Test
    void unsupportedThinkingIsRejectedOnlyByResolveSupported() {
        // gpt-4o has no reasoning: only "off"; claude-sonnet-4-5 has no xhigh.
        assertTrue(Fixtures.CATALOG.resolve("openai/gpt-4o:high").isPresent());
        assertTrue(Fixtures.CATALOG.resolveSupported("openai/gpt-4o:high").isEmpty());
        assertTrue(Fixtures.CATALOG.resolveSupported("openai/gpt-4o:off").isPresent());
        assertTrue(Fixtures.CATALOG.resolveSupported("anthropic/claude-sonnet-4-5:xhigh").isEmpty());
        assertTrue(Fixtures.CATALOG.resolveSupported("anthropic/claude-opus-4-5:xhigh").isPresent());
    }
}
