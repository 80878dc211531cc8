package dev.agentd.bench.jmh.fallback;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.catalog.Catalog;
import dev.agentd.server.fallback.CandidateScan;
import dev.agentd.server.fallback.FallbackCatalog;
import dev.agentd.server.fallback.ChainsMemo;
import dev.agentd.server.fallback.Chains;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One candidate scan on a 5-rung chain, as the session would run it on each provider error: the
 * memoized canonical chains, the entries after the current model, then the scan. Two cases: the
 * first rung is usable, and the worst case where four rungs are skipped (tried, cooling,
 * unauthenticated, circuit open) before the fifth is chosen. Target: well under 50 µs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CandidateScanBench {
    private static final String KEY = "anthropic/claude-opus-4-5";

    private FallbackCatalog catalog;
    private ChainsMemo memo;
    private Map<String, List<String>> raw;
    private Model current;
    private CandidateScan.View clean;
    private CandidateScan.View fourSkips;

    @Setup
    public void setUp() {
        List<Model> models = new ArrayList<>(Catalog.builtin().all());
        catalog = FallbackCatalog.of(models);
        memo = new ChainsMemo();
        raw = new LinkedHashMap<>();
        raw.put(KEY, List.of("anthropic/claude-sonnet-4-5:high", "openai/gpt-5:high", "openrouter/openai/gpt-5",
                "openai/o3", "groq/openai/gpt-oss-120b"));
        current = catalog.find("anthropic", "claude-opus-4-5").orElseThrow();
        clean = CandidateScan.View.of(current, ThinkingLevel.HIGH);
        Set<String> tried = Set.of("anthropic/claude-sonnet-4-5");
        Set<String> cooling = Set.of("openai/gpt-5");
        Set<String> open = Set.of("openai/o3");
        fourSkips = clean.withTried(tried::contains).withCooling(cooling::contains)
                .withCredentials(provider -> !provider.equals("openrouter")).withCircuitOpen(open::contains);
        if (!scan(fourSkips).next().orElseThrow().selector().equals("groq/openai/gpt-oss-120b")) {
            throw new IllegalStateException("the worst case must pick the fifth rung");
        }
    }

    private CandidateScan.Scan scan(CandidateScan.View view) {
        Chains chains = memo.get(raw, catalog, provider -> true);
        return CandidateScan.scan(KEY, chains.candidatesAfter(KEY, current.selector() + ":high"), catalog, view);
    }

    @Benchmark
    public CandidateScan.Scan firstRungUsable() {
        return scan(clean);
    }

    @Benchmark
    public CandidateScan.Scan fifthRungAfterFourSkips() {
        return scan(fourSkips);
    }
}
