package dev.agentd.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Provider-scoped skips of the candidate scan in a real session (FALLBACK §3, §5.2): the chain
 * {@code faux/faux-1 → [faux/faux-2, scripted/scripted-1]} has a same-provider rung and another
 * provider's rung.
 */
class FallbackProvidersTest {
    @TempDir
    Path dir;

    private SessionHarness harness() {
        SessionHarness harness = SessionHarness.builder(dir).provider(new ScriptedProvider(), ScriptedProvider.MODEL)
                .credentials("scripted", "key-one").build();
        harness.session.models().set("faux", "faux-1");
        harness.session.fallback().setChain("faux/faux-1", List.of("faux/faux-2", "scripted/scripted-1"));
        harness.session.settings().setRetry(3, 1L, 60_000L);
        return harness;
    }

    @Test
    void aRejectedCredentialSkipsEveryRungOfItsProviderForTheTurn() {
        try (SessionHarness harness = harness()) {
            harness.enqueue(FauxStep.error("401 invalid x-api-key", 401));
            harness.promptToEnd("hi");
            assertEquals(List.of("faux/faux-1", "scripted/scripted-1"), harness.replyModels(),
                    "no same-model retry, and faux-2 shares the rejected provider");
            assertEquals(List.of(new AgentEvent.RetryFallbackApplied("faux/faux-1", "scripted/scripted-1",
                    "faux/faux-1", "hard-error", null)), harness.events(AgentEvent.RetryFallbackApplied.class));
        }
    }

    @Test
    void aHardErrorOfAnotherKindKeepsTheSameProvidersRungs() {
        try (SessionHarness harness = harness()) {
            harness.enqueue(FauxStep.error("400 invalid request: bad field", 400), FauxStep.text("faux-2 served"));
            harness.promptToEnd("hi");
            assertEquals(List.of("faux/faux-1", "faux/faux-2"), harness.replyModels());
        }
    }

    @Test
    void anAccountLimitMakesTheProvidersOtherRungsALastResort() {
        try (SessionHarness harness = harness()) {
            harness.enqueue(new FauxStep(null, null, null, null, null, "You've hit your session limit", 429,
                    "usage_limit_reached", null, null, null, null, null));
            harness.promptToEnd("hi");
            List<AgentEvent.RetryFallbackApplied> applied = harness.events(AgentEvent.RetryFallbackApplied.class);
            assertEquals(1, applied.size(), applied.toString());
            assertEquals("scripted/scripted-1", applied.get(0).to());
            assertEquals("account", applied.get(0).limit());
            assertEquals("billing", applied.get(0).reason());
        }
    }

    @Test
    void aFallbackWhoseAccountIsSpentRevertsAtOnceEvenWhileThePrimaryCools() {
        ScriptedProvider scripted = new ScriptedProvider();
        try (SessionHarness harness = SessionHarness.builder(dir).provider(scripted, ScriptedProvider.MODEL)
                .credentials("scripted", "key-one").build()) {
            harness.session.models().set("faux", "faux-1");
            harness.session.fallback().setChain("faux/faux-1", List.of("scripted/scripted-1"));
            harness.session.settings().setRetry(0, 1L, 60_000L);
            harness.enqueue(FauxStep.error("503 overloaded", 503), FauxStep.text("primary again"));
            harness.promptToEnd("one");
            scripted.fail(new dev.agentd.server.ai.ProviderError("Your credit balance is too low", 400,
                    "invalid_request_error", null, null));
            harness.promptToEnd("two");
            assertEquals(1, harness.events(AgentEvent.RetryFallbackExhausted.class).size());
            harness.promptToEnd("three");
            assertEquals(List.of("faux/faux-1", "scripted/scripted-1", "scripted/scripted-1", "faux/faux-1"),
                    harness.replyModels(), "the primary still cools, but the fallback is stranded");
            assertEquals(List.of(new AgentEvent.RetryFallbackReverted("scripted/scripted-1", "faux/faux-1",
                    "fallback-unusable")), harness.events(AgentEvent.RetryFallbackReverted.class));
        }
    }
}
