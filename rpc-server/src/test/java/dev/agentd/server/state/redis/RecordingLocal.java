package dev.agentd.server.state.redis;

import dev.agentd.server.state.Admission;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.state.CircuitView;
import dev.agentd.server.state.Circuits;
import dev.agentd.server.state.CredentialBlocks;
import dev.agentd.server.state.CredentialId;
import dev.agentd.server.state.ProbeToken;
import dev.agentd.server.state.SharedState;
import dev.agentd.server.state.StoreStatus;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local stand-in as the tests see it: it counts the calls that reached it and answers with
 * values Redis never would (-1 durations, {@code local-open}), so a test knows who answered.
 */
final class RecordingLocal implements SharedState {
    static final long LOCAL_MS = 424_242;
    final AtomicInteger calls = new AtomicInteger();
    volatile boolean closed;

    @Override
    public Circuits circuits() {
        return new Circuits() {
            @Override
            public Admission admit(String selector, String owner, CircuitTimings timings) {
                calls.incrementAndGet();
                return new Admission.Open(LOCAL_MS);
            }

            @Override
            public long open(String selector, OptionalLong retryAfterMs, CircuitTimings timings) {
                calls.incrementAndGet();
                return LOCAL_MS;
            }

            @Override
            public void close(String selector) {
                calls.incrementAndGet();
            }

            @Override
            public boolean release(String selector, ProbeToken token) {
                calls.incrementAndGet();
                return false;
            }

            @Override
            public List<CircuitView> list(CircuitTimings timings) {
                calls.incrementAndGet();
                return List.of(new CircuitView("local-open", CircuitView.State.OPEN, LOCAL_MS));
            }
        };
    }

    @Override
    public CredentialBlocks credentialBlocks() {
        return new CredentialBlocks() {
            @Override
            public void block(CredentialId id, long durationMs) {
                calls.incrementAndGet();
            }

            @Override
            public long blockedForMs(CredentialId id) {
                calls.incrementAndGet();
                return LOCAL_MS;
            }
        };
    }

    @Override
    public StoreStatus status() {
        return new StoreStatus("memory", false, Optional.empty());
    }

    @Override
    public void close() {
        closed = true;
    }
}
