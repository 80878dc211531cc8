package dev.agentd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.faux.FauxModels;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 17 points 6 and 7: log level choice, decision lines, startup warnings, unknown-model hints. */
class NewcomerCliTest {
    private static final Model LLAMA = new Model("llama3.1:8b", "llama3.1:8b", "openai-completions", "ollama",
            "http://127.0.0.1:11434/v1", false, List.of("text"), Model.Cost.FREE, 128_000, 16_384);

    @Test
    void verboseWinsOverAgentdLogWhichWinsOverTheDefault() {
        assertEquals(new LogLevel.Choice("debug", null),
                LogLevel.choose(new String[] {"--verbose"}, Map.of("AGENTD_LOG", "warn")));
        assertEquals(new LogLevel.Choice("warn", null), LogLevel.choose(new String[0], Map.of("AGENTD_LOG", "WARN")));
        assertEquals(new LogLevel.Choice("info", null), LogLevel.choose(new String[0], Map.of()));
        LogLevel.Choice bad = LogLevel.choose(new String[0], Map.of("AGENTD_LOG", "loud"));
        assertEquals("info", bad.level());
        assertTrue(bad.problem().contains("AGENTD_LOG must be debug, info or warn"), bad.problem());
    }

    @Test
    void verboseIsAnOption() throws CliOptions.UsageException {
        assertTrue(CliOptions.parse("--verbose").verbose());
        assertTrue(CliOptions.USAGE.contains("--verbose"));
        assertTrue(CliOptions.USAGE.contains("AGENTD_DIR"));
        assertTrue(CliOptions.USAGE.contains("Exit codes"));
    }

    @Test
    void retryCompactionAndFallbackDecisionsAreDescribedWithWhy() {
        assertEquals("retry 1/3 in 2000 ms because: 529 overloaded",
                DecisionLog.describe(new AgentEvent.AutoRetryStart(1, 3, 2000, "529 overloaded")));
        assertEquals("retries ended after attempt 3: 529 overloaded",
                DecisionLog.describe(new AgentEvent.AutoRetryEnd(false, 3, "529 overloaded")));
        assertEquals("compacting the context because: overflow",
                DecisionLog.describe(new AgentEvent.CompactionStart("overflow")));
        assertEquals("falling back from a/x to b/y because: rate_limit",
                DecisionLog.describe(new AgentEvent.RetryFallbackApplied("a/x", "b/y", "k", "rate_limit", null)));
        assertNull(DecisionLog.describe(new AgentEvent.AgentStart()));
    }

    @Test
    void theFauxFallbackIsExplainedOnlyWhenTheConfigurationHadProblems() {
        StartupWarnings clean = new StartupWarnings();
        clean.afterChoice(FauxModels.FAUX_1, false);
        assertEquals(List.of(), clean.list());

        StartupWarnings broken = new StartupWarnings();
        broken.addAll(List.of("malformed JSON: models.json:1:2: x; ignoring the file"));
        broken.afterChoice(FauxModels.FAUX_1, true);
        assertEquals(1, broken.list().size(), "an explicit --model faux/faux-1 is no fallback");
        broken.afterChoice(FauxModels.FAUX_1, false);
        assertTrue(broken.list().get(1).startsWith("using the embedded faux model faux/faux-1"), broken.list().toString());
    }

    @Test
    void anUnknownModelListsTheClosestAndPointsAtModelsJsonProblems() {
        ModelRegistry models = new ModelRegistry(List.of(LLAMA, FauxModels.FAUX_1), model -> Map.of());
        assertEquals("unknown model 'llama3'; closest: ollama/llama3.1:8b", StartupWarnings.unknownModel("llama3",
                models, List.of()));
        assertEquals("unknown model 'nothing-like-it' (models.json had 1 problem(s), logged above: a skipped entry "
                + "may be the one you mean)", StartupWarnings.unknownModel("nothing-like-it", models, List.of("w")));
    }
}
