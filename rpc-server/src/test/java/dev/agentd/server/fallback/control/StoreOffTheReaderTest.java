package dev.agentd.server.fallback.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.testing.HookedState;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No shared-store I/O on the command reader (review W6): with a store that stalls on every call,
 * {@code set_model}, {@code get_state} and {@code get_fallback_state} still answer; the circuit
 * work of the user's choice happens on the run thread once the store answers.
 */
class StoreOffTheReaderTest {
    private static final String RUNG = "faux/faux-2";
    /** Only a hang guard: the calls under test never wait for the store at all. */
    private static final Duration HANG = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @Test
    void aStalledStoreNeverHoldsTheReader() throws InterruptedException {
        HookedState[] store = new HookedState[1];
        try (SessionHarness harness = SessionHarness.builder(dir).storeView(s -> store[0] = new HookedState(s))
                .build()) {
            harness.session.fallback().setChain("faux/faux-1", List.of(RUNG));
            harness.state.circuits().open(RUNG, OptionalLong.empty(), new CircuitTimings(60_000, 1_800_000, 120_000));
            CountDownLatch stalled = new CountDownLatch(1);
            CountDownLatch entered = new CountDownLatch(1);
            store[0].onCall(call -> {
                entered.countDown();
                try {
                    stalled.await(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                assertTimeoutPreemptively(HANG, () -> {
                    harness.session.models().set("faux", "faux-2"); // set_model: its circuit closes, later
                    assertEquals("faux-2", harness.session.state().model().id()); // get_state
                    Results.FallbackState state = harness.session.fallback().state(); // get_fallback_state
                    assertTrue(state.enabled());
                });
                assertTrue(entered.await(10, TimeUnit.SECONDS), "the store work went to the run thread");
                assertEquals(List.of(), harness.events(AgentEvent.FallbackCircuitClosed.class),
                        "nothing is closed while the store stalls");
            } finally {
                stalled.countDown();
            }
            harness.awaitEvent(event -> event.equals(new AgentEvent.FallbackCircuitClosed(RUNG)));
        }
    }
}
