package dev.agentd.bench.jmh.fallback;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.catalog.Catalog;
import dev.agentd.server.fallback.CandidateScan;
import dev.agentd.server.fallback.FallbackCatalog;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.ChainsMemo;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The whole decision cost of one failed reply, issue 13's target (well under 50 µs): classify the
 * reply ({@code ErrorClassifier.classify}, the text patterns included) and scan a 5-rung chain for
 * the next candidate. Three replies: an in-band Anthropic overload (structured type, transient),
 * an OpenAI-style quota body that is billing only by its text, and a long provider error body cut
 * to the classifier's bound (the patterns' worst input). The scan is the worst case of
 * {@link CandidateScanBench}: four rungs skipped before the fifth is chosen.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ClassifyThenScanBench {
    private static final String KEY = "anthropic/claude-opus-4-5";

    private FallbackCatalog catalog;
    private ChainsMemo memo;
    private Map<String, List<String>> raw;
    private Model current;
    private CandidateScan.View fourSkips;
    private AgentMessage.Assistant overloaded;
    private AgentMessage.Assistant quotaText;
    private AgentMessage.Assistant longBody;

    @Setup
    public void setUp() {
        List<Model> models = new ArrayList<>(Catalog.builtin().all());
        catalog = FallbackCatalog.of(models);
        memo = new ChainsMemo();
        raw = new LinkedHashMap<>();
        raw.put(KEY, List.of("anthropic/claude-sonnet-4-5:high", "openai/gpt-5:high", "openrouter/openai/gpt-5",
                "openai/o3", "groq/openai/gpt-oss-120b"));
        current = catalog.find("anthropic", "claude-opus-4-5").orElseThrow();
        Set<String> tried = Set.of("anthropic/claude-sonnet-4-5");
        Set<String> cooling = Set.of("openai/gpt-5");
        Set<String> open = Set.of("openai/o3");
        fourSkips = CandidateScan.View.of(current, ThinkingLevel.HIGH).withTried(tried::contains)
                .withCooling(cooling::contains).withCredentials(provider -> !provider.equals("openrouter"))
                .withCircuitOpen(open::contains);

        overloaded = failed("529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
                529, "overloaded_error");
        quotaText = failed("429 You exceeded your current quota, please check your plan and billing details.",
                429, null);
        longBody = failed("502 <html><head><title>502 Bad Gateway</title></head><body>"
                + "upstream connect error or disconnect/reset before headers. ".repeat(400) + "</body></html>",
                502, null);
        check(overloaded, Set.of(ErrorClass.TRANSIENT));
        check(quotaText, Set.of(ErrorClass.BILLING, ErrorClass.QUOTA));
        check(longBody, Set.of(ErrorClass.TRANSIENT));
        if (!scan().next().orElseThrow().selector().equals("groq/openai/gpt-oss-120b")) {
            throw new IllegalStateException("the worst case must pick the fifth rung");
        }
    }

    private static AgentMessage.Assistant failed(String text, int status, String type) {
        return new AgentMessage.Assistant(List.of(), "anthropic-messages", "anthropic", "claude-opus-4-5",
                Usage.ZERO, StopReason.ERROR, text, 0, status, type, null, null);
    }

    /** The benchmark measures the paths it names: a reply classified otherwise is a broken setup. */
    private void check(AgentMessage.Assistant message, Set<ErrorClass> expected) {
        ErrorClass actual = ErrorClassifier.classify(message, current.contextWindow()).errorClass();
        if (!expected.contains(actual)) {
            throw new IllegalStateException("expected " + expected + ", classified " + actual);
        }
    }

    private CandidateScan.Scan scan() {
        Chains chains = memo.get(raw, catalog, provider -> true);
        return CandidateScan.scan(KEY, chains.candidatesAfter(KEY, current.selector() + ":high"), catalog, fourSkips);
    }

    private void decide(AgentMessage.Assistant reply, Blackhole sink) {
        Classification classification = ErrorClassifier.classify(reply, current.contextWindow());
        sink.consume(classification);
        sink.consume(scan());
    }

    @Benchmark
    public void overloadedThenScan(Blackhole sink) {
        decide(overloaded, sink);
    }

    @Benchmark
    public void quotaTextThenScan(Blackhole sink) {
        decide(quotaText, sink);
    }

    @Benchmark
    public void longErrorBodyThenScan(Blackhole sink) {
        decide(longBody, sink);
    }
}
