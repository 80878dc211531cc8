package dev.agentd.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SharedState} must do, on fake epoch time. A store's test extends this and
 * says how to build one; {@link #newPeer} is a second handle on the same shared state (another
 * process's view) when the store is shared, else the same instance.
 */
public abstract class SharedStateContract {
    protected static final CircuitTimings TIMINGS = new CircuitTimings(1000, 3000, 500);
    protected final AtomicLong now = new AtomicLong(1_000_000);
    protected SharedState state;

    /** A new, empty store on {@code clock} (epoch ms). */
    protected abstract SharedState newState(LongSupplier clock);

    /** Another handle on the same state as {@link #state}. */
    protected abstract SharedState newPeer(LongSupplier clock);

    @BeforeEach
    void createState() {
        state = newState(now::get);
    }

    @AfterEach
    void closeState() {
        state.close();
    }

    @Test
    void aSelectorWithoutARecordIsClosed() {
        assertEquals(new Admission.Closed(), state.circuits().admit("p/m", "s:turn", TIMINGS));
        assertEquals(List.of(), state.circuits().list(TIMINGS));
    }

    @Test
    void openDoublesUpToTheMaximumAndReportsTheDuration() {
        Circuits circuits = state.circuits();
        assertEquals(1000, circuits.open("p/m", OptionalLong.empty(), TIMINGS));
        assertEquals(2000, circuits.open("p/m", OptionalLong.empty(), TIMINGS));
        assertEquals(3000, circuits.open("p/m", OptionalLong.empty(), TIMINGS));
        assertEquals(3000, circuits.open("p/m", OptionalLong.empty(), TIMINGS));
        assertEquals(new Admission.Open(3000), circuits.admit("p/m", "s:turn", TIMINGS));
        assertEquals(List.of(new CircuitView("p/m", CircuitView.State.OPEN, 3000)), circuits.list(TIMINGS));
    }

    @Test
    void retryAfterLengthensTheOpeningUpToTheMaximum() {
        assertEquals(2500, state.circuits().open("p/a", OptionalLong.of(2500), TIMINGS));
        assertEquals(3000, state.circuits().open("p/b", OptionalLong.of(600_000), TIMINGS));
    }

    @Test
    void halfOpenGrantsExactlyOneLeaseAndTheSameTokenToItsOwner() {
        Circuits circuits = state.circuits();
        circuits.open("p/m", OptionalLong.empty(), TIMINGS);
        now.addAndGet(1000);
        Admission first = circuits.admit("p/m", "a:turn", TIMINGS);
        Admission.Probe probe = assertInstanceOf(Admission.Probe.class, first);
        assertEquals("a:turn", probe.token().owner());
        assertEquals(first, circuits.admit("p/m", "a:turn", TIMINGS));
        SharedState peer = newPeer(now::get);
        assertEquals(new Admission.Open(500), peer.circuits().admit("p/m", "b:turn", TIMINGS));
        assertEquals(List.of(new CircuitView("p/m", CircuitView.State.HALF_OPEN, 500)), peer.circuits().list(TIMINGS));
    }

    @Test
    void releaseOnlyByTheCurrentTokenThenAnotherOwnerMayProbe() {
        Circuits circuits = state.circuits();
        circuits.open("p/m", OptionalLong.empty(), TIMINGS);
        now.addAndGet(1000);
        ProbeToken token = ((Admission.Probe) circuits.admit("p/m", "a:turn", TIMINGS)).token();
        assertFalse(circuits.release("p/m", new ProbeToken("b:turn", token.generation())));
        assertFalse(circuits.release("p/m", new ProbeToken("a:turn", token.generation() - 1)));
        assertFalse(circuits.release("other/m", token));
        assertTrue(circuits.release("p/m", token));
        Admission.Probe next = assertInstanceOf(Admission.Probe.class, circuits.admit("p/m", "b:turn", TIMINGS));
        assertNotEquals(token.generation(), next.token().generation());
        assertFalse(circuits.release("p/m", token), "a stale token never ends a later lease");
    }

    @Test
    void anUnreleasedLeaseExpiresSoACrashedHolderNeverBlocksTheCircuit() {
        Circuits circuits = state.circuits();
        circuits.open("p/m", OptionalLong.empty(), TIMINGS);
        now.addAndGet(1000);
        ProbeToken crashed = ((Admission.Probe) circuits.admit("p/m", "gone:turn", TIMINGS)).token();
        now.addAndGet(499);
        assertInstanceOf(Admission.Open.class, circuits.admit("p/m", "b:turn", TIMINGS));
        now.addAndGet(1);
        Admission.Probe next = assertInstanceOf(Admission.Probe.class, circuits.admit("p/m", "b:turn", TIMINGS));
        assertTrue(next.token().generation() > crashed.generation());
    }

    @Test
    void closeDeletesTheRecordAndResetsTheDoubling() {
        Circuits circuits = state.circuits();
        circuits.open("p/m", OptionalLong.empty(), TIMINGS);
        circuits.open("p/m", OptionalLong.empty(), TIMINGS);
        circuits.close("p/m");
        assertEquals(new Admission.Closed(), circuits.admit("p/m", "s:turn", TIMINGS));
        assertEquals(1000, circuits.open("p/m", OptionalLong.empty(), TIMINGS));
    }

    @Test
    void idleRecordsAreSweptAndNoLongerListed() {
        Circuits circuits = state.circuits();
        circuits.open("p/old", OptionalLong.empty(), TIMINGS);
        now.addAndGet(1000 + 3000);
        assertEquals(List.of(), circuits.list(TIMINGS));
        circuits.open("p/new", OptionalLong.empty(), TIMINGS);
        assertEquals(new Admission.Closed(), circuits.admit("p/old", "s:turn", TIMINGS));
        assertEquals(1000, circuits.open("p/old", OptionalLong.empty(), TIMINGS), "the doubling starts over");
    }

    @Test
    void credentialBlocksNeverShortenAndEnd() {
        CredentialBlocks blocks = state.credentialBlocks();
        CredentialId id = CredentialIds.of("beta", "sk-contract-key");
        assertEquals(0, blocks.blockedForMs(id));
        blocks.block(id, 5000);
        blocks.block(id, 1000);
        assertEquals(5000, blocks.blockedForMs(id));
        assertEquals(5000, newPeer(now::get).credentialBlocks().blockedForMs(id));
        assertEquals(0, blocks.blockedForMs(CredentialIds.of("beta", "sk-other")));
        now.addAndGet(5000);
        assertEquals(0, blocks.blockedForMs(id));
    }

    @Test
    void circuitsAreSharedWithThePeer() {
        state.circuits().open("p/m", OptionalLong.empty(), TIMINGS);
        SharedState peer = newPeer(now::get);
        assertEquals(new Admission.Open(1000), peer.circuits().admit("p/m", "b:turn", TIMINGS));
        peer.circuits().close("p/m");
        assertEquals(new Admission.Closed(), state.circuits().admit("p/m", "a:turn", TIMINGS));
    }
}
