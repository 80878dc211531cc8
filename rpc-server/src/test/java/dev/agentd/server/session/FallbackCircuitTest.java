package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.state.Admission;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Circuit breakers in a real session on fake time (FALLBACK §6): faux-1 is the primary, faux-2
 * its rung; the harness's shared state stands for every other session on the agent directory.
 */
class FallbackCircuitTest {
    private static final String PRIMARY = "faux/faux-1";
    private static final String RUNG = "faux/faux-2";
    /** The defaults: C = 60 s, M = 30 min, the lease the stream-start timeout. */
    private static final CircuitTimings DEFAULTS = new CircuitTimings(60_000, 1_800_000, 120_000);

    @TempDir
    Path dir;
    SessionHarness harness;

    @BeforeEach
    void setUp() {
        harness = SessionHarness.builder(dir).build();
        harness.session.fallback().setChain(PRIMARY, List.of(RUNG));
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    private void retries(int maxRetries) {
        harness.session.settings().setRetry(maxRetries, 1L, 60_000L);
    }

    private static FauxStep overloaded() {
        return FauxStep.error("503 overloaded", 503);
    }

    private Admission otherSession() {
        return harness.state.circuits().admit(PRIMARY, "other:turn", DEFAULTS);
    }

    @Test
    void aTransientSwitchOpensThePrimaryForEverySessionAndIsListed() {
        retries(1);
        harness.enqueue(overloaded(), overloaded(), FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertEquals(List.of(PRIMARY, PRIMARY, RUNG), harness.replyModels());
        assertEquals(List.of(new AgentEvent.FallbackCircuitOpened(PRIMARY, 60_000, null)),
                harness.events(AgentEvent.FallbackCircuitOpened.class));
        assertEquals(new Admission.Open(60_000), otherSession());
        Results.FallbackState state = harness.session.fallback().state();
        assertEquals(List.of(new Results.FallbackCircuit(PRIMARY, "open", 60_000)), state.circuits());
        assertTrue(state.cooldowns().stream().anyMatch(c -> c.selector().equals(PRIMARY) && c.remainingMs() > 0),
                state.cooldowns().toString());
    }

    @Test
    void aRetryAfterLengthensTheOpening() {
        harness.session.settings().setRetry(0, 1L, 600_000L);
        harness.enqueue(overloaded().withRetryAfterMs(300_000), FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertEquals(List.of(new AgentEvent.FallbackCircuitOpened(PRIMARY, 300_000, 300_000L)),
                harness.events(AgentEvent.FallbackCircuitOpened.class));
    }

    /** 401 would skip every faux rung (one provider); its "never opens" is the same branch as these. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"403 forbidden, 403", "400 invalid request: bad field, 400"})
    void accessDeniedAndRequestShapeErrorsSwitchButNeverOpenACircuit(String message, int status) {
        retries(2);
        harness.enqueue(FauxStep.error(message, status), FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertEquals(List.of(PRIMARY, RUNG), harness.replyModels());
        assertEquals(List.of(), harness.events(AgentEvent.FallbackCircuitOpened.class));
        assertEquals(new Admission.Closed(), otherSession());
    }

    @Test
    void anAbortOpensNothing() {
        retries(2);
        harness.enqueue(FauxStep.text("slow").withDelayMs(10_000));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        await().until(() -> !harness.scheduler.pendingDelays().isEmpty());
        harness.session.abort();
        await().until(done::isDone);
        assertEquals(List.of(), harness.events(AgentEvent.FallbackCircuitOpened.class));
        assertEquals(new Admission.Closed(), otherSession());
    }

    @Test
    void aPromptOnAPrimaryAnotherSessionOpenedGoesStraightToTheRung() {
        retries(2);
        harness.state.circuits().open(PRIMARY, OptionalLong.empty(), DEFAULTS);
        harness.enqueue(FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertEquals(List.of(RUNG), harness.replyModels(), "the primary was never asked");
        assertEquals(List.of(new AgentEvent.RetryFallbackApplied(PRIMARY, RUNG, PRIMARY, "transient", null)),
                harness.events(AgentEvent.RetryFallbackApplied.class));
        assertEquals(List.of(), harness.events(AgentEvent.FallbackCircuitOpened.class), "a skip opens nothing");
    }

    @Test
    void aHalfOpenProbeThatFailsSwitchesAfterOneRequestAndDoubles() {
        retries(3);
        harness.state.circuits().open(PRIMARY, OptionalLong.empty(), DEFAULTS);
        harness.scheduler.advance(60_000);
        harness.enqueue(overloaded(), FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertEquals(List.of(PRIMARY, RUNG), harness.replyModels(), "exactly one probe request");
        assertEquals(List.of(new AgentEvent.FallbackCircuitOpened(PRIMARY, 120_000, null)),
                harness.events(AgentEvent.FallbackCircuitOpened.class));
    }

    @Test
    void whileThisSessionProbesAnotherIsKeptOutAndTheSuccessClosesTheCircuit() {
        retries(0);
        harness.state.circuits().open(PRIMARY, OptionalLong.empty(), DEFAULTS);
        harness.scheduler.advance(60_000);
        harness.enqueue(FauxStep.text("the probe answers").withDelayMs(1000));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        await().until(() -> !harness.scheduler.pendingDelays().isEmpty());
        assertInstanceOf(Admission.Open.class, otherSession(), "one probe, one owner");
        harness.scheduler.advance(1000);
        await().until(done::isDone);
        assertEquals(List.of(PRIMARY), harness.replyModels());
        assertEquals(List.of(new AgentEvent.FallbackCircuitClosed(PRIMARY)),
                harness.events(AgentEvent.FallbackCircuitClosed.class));
        assertEquals(new Admission.Closed(), otherSession());
    }

    @Test
    void anotherSessionsLiveProbeKeepsThisOneOff() {
        retries(0);
        harness.state.circuits().open(PRIMARY, OptionalLong.empty(), DEFAULTS);
        harness.scheduler.advance(60_000);
        assertInstanceOf(Admission.Probe.class, otherSession());
        harness.enqueue(FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertEquals(List.of(RUNG), harness.replyModels());
        assertEquals(List.of(new Results.FallbackCircuit(PRIMARY, "half-open", 120_000)),
                harness.session.fallback().state().circuits());
    }

    @Test
    void theRevertWaitsForTheCircuitNotTheShorterCooldown() {
        retries(0);
        harness.enqueue(overloaded(), FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        harness.scheduler.advance(30_000); // the 5xx cooldown (20 s) is over, the circuit (60 s) is not
        harness.enqueue(FauxStep.text("still the rung"));
        harness.promptToEnd("two");
        assertEquals(List.of(PRIMARY, RUNG, RUNG), harness.replyModels());
        harness.scheduler.advance(30_000);
        harness.enqueue(FauxStep.text("the primary is back"));
        harness.promptToEnd("three");
        assertEquals(List.of(PRIMARY, RUNG, RUNG, PRIMARY), harness.replyModels());
        assertEquals(1, harness.events(AgentEvent.RetryFallbackReverted.class).size());
        assertEquals(List.of(new AgentEvent.FallbackCircuitClosed(PRIMARY)),
                harness.events(AgentEvent.FallbackCircuitClosed.class));
    }

    @Test
    void circuitsAreOffWhenTheirCooldownIsZero() throws Exception {
        retries(0);
        harness.settings.setForProcess("fallback.circuitCooldownMs", IntNode.valueOf(0));
        harness.enqueue(overloaded(), FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertEquals(List.of(), harness.events(AgentEvent.FallbackCircuitOpened.class));
        assertEquals(new Admission.Closed(), otherSession());
        assertEquals(List.of(), harness.session.fallback().state().circuits());
    }
}
