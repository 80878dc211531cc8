package dev.agentd.server.testing;

import dev.agentd.server.state.Admission;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.state.CircuitView;
import dev.agentd.server.state.Circuits;
import dev.agentd.server.state.CredentialBlocks;
import dev.agentd.server.state.ProbeToken;
import dev.agentd.server.state.SharedState;
import dev.agentd.server.state.StoreStatus;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * A shared state whose circuit calls pass a hook first: another agentd acting at that very moment,
 * or a store that stalls. Everything else goes to the wrapped state.
 */
public final class HookedState implements SharedState, Circuits {
    /** Which circuit call is being made, and for which selector (null for a listing). */
    public record Call(String operation, String selector) {}

    private final SharedState inner;
    private volatile Consumer<Call> hook = call -> {};

    public HookedState(SharedState inner) {
        this.inner = inner;
    }

    /** Runs {@code hook} before every later circuit call, on the calling thread. */
    public void onCall(Consumer<Call> hook) {
        this.hook = hook;
    }

    private void before(String operation, String selector) {
        hook.accept(new Call(operation, selector));
    }

    @Override
    public Circuits circuits() {
        return this;
    }

    @Override
    public CredentialBlocks credentialBlocks() {
        return inner.credentialBlocks();
    }

    @Override
    public StoreStatus status() {
        return inner.status();
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public Admission admit(String selector, String owner, CircuitTimings timings) {
        before("admit", selector);
        return inner.circuits().admit(selector, owner, timings);
    }

    @Override
    public long open(String selector, OptionalLong retryAfterMs, CircuitTimings timings) {
        before("open", selector);
        return inner.circuits().open(selector, retryAfterMs, timings);
    }

    @Override
    public void close(String selector) {
        before("close", selector);
        inner.circuits().close(selector);
    }

    @Override
    public boolean release(String selector, ProbeToken token) {
        before("release", selector);
        return inner.circuits().release(selector, token);
    }

    @Override
    public List<CircuitView> list(CircuitTimings timings) {
        before("list", null);
        return inner.circuits().list(timings);
    }
}
