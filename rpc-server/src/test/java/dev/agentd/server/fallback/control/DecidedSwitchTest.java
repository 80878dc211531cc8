package dev.agentd.server.fallback.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.BooleanNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.testing.HookedState;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision carries its rung (review W2): carrying a switch out takes the rung the decision
 * named, looks again only when that rung's circuit no longer admits the session, and every run
 * sends exactly one {@code agent_end}.
 */
class DecidedSwitchTest {
    private static final String PRIMARY = "faux/faux-1";
    private static final String RUNG = "faux/faux-2";
    private static final String OTHER = "scripted/scripted-1";
    private static final CircuitTimings DEFAULTS = new CircuitTimings(60_000, 1_800_000, 120_000);

    @TempDir
    Path dir;
    private SessionHarness harness;
    private HookedState store;

    private void start(String... chain) {
        harness = SessionHarness.builder(dir).provider(new ScriptedProvider(), ScriptedProvider.MODEL)
                .credentials("scripted", "key-one").storeView(state -> store = new HookedState(state)).build();
        harness.session.models().set("faux", "faux-1");
        harness.session.fallback().setChain(PRIMARY, List.of(chain));
        harness.session.settings().setRetry(0, 1L, 60_000L);
    }

    @AfterEach
    void tearDown() {
        if (harness != null) {
            harness.close();
        }
    }

    /** Each agent_end is either the last event of the prompt's runs or followed by the next run's start. */
    private List<Boolean> agentEnds() {
        List<String> types = harness.types();
        List<Boolean> ends = new ArrayList<>();
        for (AgentEvent.AgentEnd end : harness.events(AgentEvent.AgentEnd.class)) {
            ends.add(end.willRetry());
        }
        int runs = 0;
        for (String type : types) {
            if (type.equals("agent_start")) {
                runs++;
            } else if (type.equals("agent_end")) {
                runs--;
                assertEquals(0, runs, "every agent_end closes exactly one run: " + types);
            }
        }
        return ends;
    }

    @Test
    void aSwitchDecidedAsTheUserTurnsFallbackOffStillHappensWithOneAgentEndPerRun() {
        start(RUNG);
        AtomicBoolean once = new AtomicBoolean();
        // The view reads the settings, then the store: the user's set_model_fallback(false) lands in
        // between. The old carrying-out re-read the settings, found no rung, and sent a second agent_end.
        store.onCall(call -> {
            if (call.operation().equals("list") && !harness.events(AgentEvent.MessageEnd.class).isEmpty()
                    && once.compareAndSet(false, true)) {
                harness.settings.setForProcess("retry.modelFallback", BooleanNode.FALSE);
            }
        });
        harness.enqueue(FauxStep.error("503 overloaded", 503), FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertTrue(once.get() && !harness.session.fallback().state().enabled(), "fallback went off mid-decision");
        assertEquals(List.of(PRIMARY, RUNG), harness.replyModels());
        assertEquals(List.of(true, false), agentEnds());
    }

    @Test
    void anAdmissionLostSinceTheDecisionMovesToTheNextRungThatAdmits() {
        start(RUNG, OTHER);
        AtomicBoolean once = new AtomicBoolean();
        // Another agentd opens the decided rung's circuit just as this session asks to enter it.
        store.onCall(call -> {
            if (call.operation().equals("admit") && RUNG.equals(call.selector()) && once.compareAndSet(false, true)) {
                harness.state.circuits().open(RUNG, OptionalLong.empty(), DEFAULTS);
            }
        });
        harness.enqueue(FauxStep.error("503 overloaded", 503));
        harness.promptToEnd("hi");
        assertEquals(List.of(PRIMARY, OTHER), harness.replyModels());
        assertEquals(List.of(new AgentEvent.RetryFallbackApplied(PRIMARY, OTHER, PRIMARY, "transient", null)),
                harness.events(AgentEvent.RetryFallbackApplied.class));
        assertEquals(List.of(true, false), agentEnds());
    }

    @Test
    void whenEveryRungRefusesTheDecidedOneIsStillTakenAsAChainNeverRefusesATurn() {
        start(RUNG);
        AtomicBoolean once = new AtomicBoolean();
        store.onCall(call -> {
            if (call.operation().equals("admit") && RUNG.equals(call.selector()) && once.compareAndSet(false, true)) {
                harness.state.circuits().open(RUNG, OptionalLong.empty(), DEFAULTS);
            }
        });
        harness.enqueue(FauxStep.error("503 overloaded", 503), FauxStep.text("the rung answers"));
        harness.promptToEnd("hi");
        assertEquals(List.of(PRIMARY, RUNG), harness.replyModels());
        assertEquals(List.of(true, false), agentEnds());
    }
}
