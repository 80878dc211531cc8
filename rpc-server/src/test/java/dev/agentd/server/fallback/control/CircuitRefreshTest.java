package dev.agentd.server.fallback.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.response.Results;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.fallback.FallbackLog;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.state.MemoryState;
import dev.agentd.server.testing.FakeScheduler;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** get_fallback_state's circuits come from the last store read; fresh reads are asked for, not awaited. */
class CircuitRefreshTest {
    private final FakeScheduler scheduler = new FakeScheduler();
    private final MemoryState store = new MemoryState(scheduler::now);
    private final Deque<Runnable> worker = new ArrayDeque<>();
    private final CircuitAccess circuits = new CircuitAccess(store, () -> "s1",
            () -> FallbackSettings.from(SettingsStore.inMemory().current(), false), () -> 120_000,
            scheduler::monotonicMs, FallbackLog.NONE, event -> {});

    @Test
    void aListingIsTheLastReadAgedOnTheClockAndPollsQueueOneRead() {
        store.open("p/m", OptionalLong.empty(), new CircuitTimings(60_000, 1_800_000, 120_000));
        assertEquals(List.of(), circuits.listed(), "nothing read yet, and listing reads nothing");
        circuits.refreshOn(worker::add);
        circuits.refreshOn(worker::add);
        assertEquals(1, worker.size(), "a read already asked for covers the second poll");
        worker.poll().run();
        assertEquals(List.of(new Results.FallbackCircuit("p/m", "open", 60_000)), circuits.listed());
        scheduler.advance(15_000);
        assertEquals(List.of(new Results.FallbackCircuit("p/m", "open", 45_000)), circuits.listed(),
                "the last read, aged by the time since");
        circuits.refreshOn(worker::add);
        assertEquals(1, worker.size(), "once done, a new poll asks again");
    }
}
