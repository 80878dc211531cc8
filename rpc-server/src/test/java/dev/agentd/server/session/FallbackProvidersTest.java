package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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

    private static void run(SessionHarness harness, String text) {
        CompletableFuture<Void> done = harness.session.prompt(text);
        while (!done.isDone()) {
            await().until(() -> done.isDone() || !harness.scheduler.pendingDelays().isEmpty());
            List<Long> pending = harness.scheduler.pendingDelays();
            if (!pending.isEmpty()) {
                harness.scheduler.advance(pending.get(0));
            }
        }
    }

    private static List<String> requestModels(SessionHarness harness) {
        List<String> models = new ArrayList<>();
        for (AgentEvent.MessageEnd end : harness.events(AgentEvent.MessageEnd.class)) {
            if (end.message() instanceof AgentMessage.Assistant reply) {
                models.add(reply.provider() + "/" + reply.model());
            }
        }
        return models;
    }

    @Test
    void aRejectedCredentialSkipsEveryRungOfItsProviderForTheTurn() {
        try (SessionHarness harness = harness()) {
            harness.enqueue(FauxStep.error("401 invalid x-api-key", 401));
            run(harness, "hi");
            assertEquals(List.of("faux/faux-1", "scripted/scripted-1"), requestModels(harness),
                    "no same-model retry, and faux-2 shares the rejected provider");
            assertEquals(List.of(new AgentEvent.RetryFallbackApplied("faux/faux-1", "scripted/scripted-1",
                    "faux/faux-1", "hard-error", null)), harness.events(AgentEvent.RetryFallbackApplied.class));
        }
    }

    @Test
    void aHardErrorOfAnotherKindKeepsTheSameProvidersRungs() {
        try (SessionHarness harness = harness()) {
            harness.enqueue(FauxStep.error("400 invalid request: bad field", 400), FauxStep.text("faux-2 served"));
            run(harness, "hi");
            assertEquals(List.of("faux/faux-1", "faux/faux-2"), requestModels(harness));
        }
    }

    @Test
    void anAccountLimitMakesTheProvidersOtherRungsALastResort() {
        try (SessionHarness harness = harness()) {
            harness.enqueue(new FauxStep(null, null, null, null, null, "You've hit your session limit", 429,
                    "usage_limit_reached", null, null, null, null, null));
            run(harness, "hi");
            List<AgentEvent.RetryFallbackApplied> applied = harness.events(AgentEvent.RetryFallbackApplied.class);
            assertEquals(1, applied.size(), applied.toString());
            assertEquals("scripted/scripted-1", applied.get(0).to());
            assertEquals("account", applied.get(0).limit());
            assertEquals("billing", applied.get(0).reason());
        }
    }
}
