package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tier 2 and probe-back wired into a real session on fake time (FALLBACK §4, §5.5): faux-1 is the
 * primary, faux-2 its rung; a 429 asking for 10 minutes (above the 5-minute cap) switches at once
 * and arms a probe of faux-1 five minutes later.
 */
class ProbeBackSessionTest {
    private static final String PRIMARY = "faux/faux-1";
    private static final long HINT = 600_000;

    @TempDir
    Path dir;
    SessionHarness harness;

    @BeforeEach
    void setUp() {
        harness = SessionHarness.builder(dir).build();
        harness.session.fallback().setChain(PRIMARY, List.of("faux/faux-2"));
        harness.session.settings().setRetry(3, 1L, 60_000L);
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    /** Runs the prompt to its end; only zero-delay retries (the hop after a switch) are let through. */
    private void run(String text) {
        CompletableFuture<Void> done = harness.session.prompt(text);
        while (!done.isDone()) {
            await().until(() -> done.isDone() || harness.scheduler.pendingDelays().contains(0L));
            harness.scheduler.advance(0);
        }
    }

    private static FauxStep rateLimited() {
        return FauxStep.error("429 rate_limit_error: slow down", 429).withRetryAfterMs(HINT);
    }

    private String lastReplyModel() {
        List<AgentEvent.MessageEnd> ends = harness.events(AgentEvent.MessageEnd.class);
        AgentMessage.Assistant reply = (AgentMessage.Assistant) ends.stream()
                .filter(end -> end.message() instanceof AgentMessage.Assistant).reduce((a, b) -> b).orElseThrow()
                .message();
        return reply.provider() + "/" + reply.model();
    }

    @Test
    void aTier2SwitchProbesThePrimaryAtHalfTheHintAndTheNextPromptReverts() {
        harness.enqueue(rateLimited(), FauxStep.text("rung"), FauxStep.text("OK"), FauxStep.text("primary again"));
        run("one");
        assertEquals("faux/faux-2", lastReplyModel(), "tier 2 switched at once");
        assertEquals(List.of(0L), harness.events(AgentEvent.AutoRetryStart.class).stream()
                .map(AgentEvent.AutoRetryStart::delayMs).toList());
        await().until(() -> !harness.events(AgentEvent.RetryProbeScheduled.class).isEmpty());
        AgentEvent.RetryProbeScheduled scheduled = harness.events(AgentEvent.RetryProbeScheduled.class).get(0);
        assertEquals(PRIMARY, scheduled.selector());
        assertEquals(1, scheduled.probeIndex());
        assertEquals(harness.scheduler.now() + HINT / 2, scheduled.atMs());

        harness.scheduler.advance(HINT / 2);
        await().until(() -> !harness.events(AgentEvent.RetryProbeResult.class).isEmpty());
        assertEquals(List.of(new AgentEvent.RetryProbeResult(PRIMARY, true, null)),
                harness.events(AgentEvent.RetryProbeResult.class));
        assertTrue(harness.session.fallback().state().cooldowns().stream()
                .noneMatch(cooldown -> cooldown.selector().equals(PRIMARY)), "the probe cleared the cooldown");

        run("two");
        assertEquals(PRIMARY, lastReplyModel(), "reverted before the hint's window closed");
        assertEquals(List.of(new AgentEvent.RetryFallbackReverted("faux/faux-2", PRIMARY, null)),
                harness.events(AgentEvent.RetryFallbackReverted.class));
    }

    @Test
    void aManualModelChangeCancelsTheProbe() {
        harness.enqueue(rateLimited(), FauxStep.text("rung"), FauxStep.text("user's choice"));
        run("one");
        await().until(() -> !harness.events(AgentEvent.RetryProbeScheduled.class).isEmpty());
        harness.session.models().set("faux", "faux-2");
        assertEquals(List.of(), harness.scheduler.pendingDelays(), "the probe timers are gone");
        harness.scheduler.advance(HINT);
        run("two");
        assertEquals(List.of(), harness.events(AgentEvent.RetryProbeResult.class));
        assertEquals("faux/faux-2", lastReplyModel());
    }
}
