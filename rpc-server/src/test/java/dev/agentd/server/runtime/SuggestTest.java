package dev.agentd.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SuggestTest {
    @Test
    void suggestsTheClosestKeyForTypicalTypos() {
        assertEquals(Optional.of("providers"), Suggest.closest("provider", Set.of("providers")));
        assertEquals(Optional.of("api_key"), Suggest.closest("apikey", Set.of("api_key", "oauth")));
        assertEquals(Optional.of("apiKey"), Suggest.closest("apikey", Set.of("api", "apiKey", "baseUrl")));
        assertEquals(Optional.of("maxRetries"), Suggest.closest("maxRetry",
                Set.of("maxRetries", "maxRetryDelayMs", "baseDelayMs")));
        assertEquals(Optional.of("baseDelayMs"), Suggest.closest("basedelayms", Set.of("baseDelayMs", "enabled")));
    }

    @Test
    void suggestsNothingForAnUnrelatedWord() {
        assertEquals(Optional.empty(), Suggest.closest("colour", Set.of("retry", "compaction")));
        assertEquals("", Suggest.didYouMean("xyz", Set.of("retry")));
        assertEquals(" (did you mean 'retry'?)", Suggest.didYouMean("rety", Set.of("retry")));
    }

    @Test
    void ranksTyposBeforeContainmentAndShorterContainersFirst() {
        assertEquals(List.of("ollama/llama3.1:8b", "groq/llama-3.3-70b-versatile"),
                Suggest.nearest("llama3", List.of("groq/llama-3.3-70b-versatile", "ollama/llama3.1:8b",
                        "anthropic/claude-sonnet-4-5"), 5));
        assertEquals(List.of("claude-sonnet-4-5"), Suggest.nearest("claude-sonnet-4",
                List.of("claude-sonnet-4-5", "gpt-4o"), 5));
    }

    @Test
    void aHugeWordCostsBoundedWork() {
        String huge = "a".repeat(1_000_000);
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> Suggest.nearest(huge,
                List.of("b".repeat(1_000_000), "retry"), 3));
    }

    @Test
    void theDistanceStopsAtTheBudget() {
        assertEquals(1, Suggest.distance("abc", "abd", 2));
        assertEquals(3, Suggest.distance("abcdef", "uvwxyz", 2));
    }
}
