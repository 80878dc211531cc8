package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.fallback.CandidateScan.Scan;
import dev.agentd.server.fallback.CandidateScan.Skip;
import dev.agentd.server.fallback.CandidateScan.View;
import dev.agentd.server.recovery.Candidate;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fallback design §5.2: which rung comes next, and why the others were passed over. */
class CandidateScanTest {
    private static final String KEY = "anthropic/claude-opus-4-5";
    private static final View BASE = View.of(Fixtures.OPUS, ThinkingLevel.HIGH);

    private static Scan scan(List<String> entries, View view) {
        return CandidateScan.scan(KEY, entries, Fixtures.CATALOG, view);
    }

    private static String next(Scan scan) {
        return scan.next().map(Candidate::selector).orElse("none");
    }

    @Test
    void eachHardSkipNamesItsReason() {
        List<String> entries = List.of("gone/model", "anthropic/claude-opus-4-5:low", "openai/gpt-5", "azure/gpt-5",
                "moonshot/k3-256k", "groq/kimi-k3", "ollama/llama3.1:8b");
        View view = BASE.withTried(Set.of("openai/gpt-5")::contains)
                .withCredentialRejected("azure"::equals)
                .withCredentials(provider -> !provider.equals("moonshot"))
                .withCooling("groq/kimi-k3"::equals);
        Scan scan = scan(entries, view);
        assertEquals("ollama/llama3.1:8b", next(scan));
        assertEquals(List.of(new Skip("gone/model", SkipReason.UNKNOWN),
                new Skip("anthropic/claude-opus-4-5:low", SkipReason.SELF),
                new Skip("openai/gpt-5", SkipReason.TRIED),
                new Skip("azure/gpt-5", SkipReason.REJECTED_CREDENTIAL),
                new Skip("moonshot/k3-256k", SkipReason.UNAUTHENTICATED),
                new Skip("groq/kimi-k3", SkipReason.SUPPRESSED)), scan.skips());
        assertFalse(scan.circuitOpen());
        assertEquals(KEY, scan.next().orElseThrow().chainKey());
        assertEquals(Fixtures.LLAMA, scan.next().orElseThrow().model());
    }

    @Test
    void theFirstCleanEntryWinsAndLaterOnesAreNotListed() {
        Scan scan = scan(List.of("openai/gpt-5", "azure/gpt-5", "gone/model"), BASE);
        assertEquals("openai/gpt-5", next(scan));
        assertEquals(List.of(), scan.skips());
    }

    @Test
    void nothingLeftListsEverything() {
        Scan scan = scan(List.of("openai/gpt-5", "gone/model"), BASE.withTried(s -> true));
        assertTrue(scan.next().isEmpty());
        assertEquals(List.of(new Skip("openai/gpt-5", SkipReason.TRIED), new Skip("gone/model", SkipReason.UNKNOWN)),
                scan.skips());
    }

    @Test
    void onlyCircuitOpenEntriesLeftReturnsTheFirstOfThem() {
        Scan scan = scan(List.of("openai/gpt-5", "azure/gpt-5", "gone/model"), BASE.withCircuitOpen(s -> true));
        assertEquals("openai/gpt-5", next(scan));
        assertTrue(scan.circuitOpen());
        assertEquals(List.of(new Skip("azure/gpt-5", SkipReason.CIRCUIT_OPEN), new Skip("gone/model", SkipReason.UNKNOWN)),
                scan.skips());
    }

    @Test
    void aClosedEntryAfterOpenOnesIsPreferred() {
        Scan scan = scan(List.of("openai/gpt-5", "azure/gpt-5"), BASE.withCircuitOpen("openai/gpt-5"::equals));
        assertEquals("azure/gpt-5", next(scan));
        assertFalse(scan.circuitOpen());
        assertEquals(List.of(new Skip("openai/gpt-5", SkipReason.CIRCUIT_OPEN)), scan.skips());
    }

    @Test
    void spentAccountsAreTriedLastNotDropped() {
        List<String> entries = List.of("anthropic/claude-sonnet-4-5", "openai/gpt-5", "openai/gpt-5-mini");
        View spent = BASE.withAccountSpent("anthropic"::equals);
        Scan healthy = scan(entries, spent);
        assertEquals("openai/gpt-5", next(healthy));
        assertEquals(List.of(new Skip("anthropic/claude-sonnet-4-5", SkipReason.ACCOUNT_LIMIT)), healthy.skips());

        Scan lastResort = scan(entries, spent.withTried(s -> s.startsWith("openai/")));
        assertEquals("anthropic/claude-sonnet-4-5", next(lastResort));
        assertEquals(List.of(new Skip("openai/gpt-5", SkipReason.TRIED), new Skip("openai/gpt-5-mini", SkipReason.TRIED)),
                lastResort.skips());
    }

    @Test
    void aSpentAccountWithAClosedCircuitBeatsAnOpenCircuit() {
        Scan scan = scan(List.of("openai/gpt-5", "anthropic/claude-sonnet-4-5"),
                BASE.withCircuitOpen("openai/gpt-5"::equals).withAccountSpent("anthropic"::equals));
        assertEquals("anthropic/claude-sonnet-4-5", next(scan));
        assertFalse(scan.circuitOpen());
    }

    @ParameterizedTest(name = "{0} from {1} -> {2}")
    @CsvSource({
        // entry                              current  expected
        "openai/gpt-5:low,                    high,    low",
        "openai/gpt-5,                        medium,  medium",
        "openai/gpt-5,                        ,        off",
        "openai/gpt-5:xhigh,                  low,     xhigh",
        "anthropic/claude-sonnet-4-5,         xhigh,   high",
        "openai/gpt-4o,                       high,    off",
        "ollama/llama3.1:8b,                  medium,  off",
    })
    void thinkingIsInheritedAndClamped(String entry, String current, String expected) {
        ThinkingLevel level = current == null ? null : ThinkingLevel.parse(current).orElseThrow();
        Model self = Fixtures.model("self", "self", true);
        Candidate candidate = CandidateScan.scan(KEY, List.of(entry), Fixtures.CATALOG, View.of(self, level))
                .next().orElseThrow();
        assertEquals(ThinkingLevel.parse(expected).orElseThrow(), candidate.thinking());
    }

    @Test
    void noCurrentModelMeansNothingIsSelf() {
        Scan scan = CandidateScan.scan(KEY, List.of("anthropic/claude-opus-4-5"), Fixtures.CATALOG, View.of(null, null));
        assertEquals("anthropic/claude-opus-4-5", next(scan));
    }
}
