package dev.agentd.server.state;

import java.util.List;
import java.util.OptionalLong;

/**
 * Circuit breakers keyed by base selector ({@code provider/id}), FALLBACK §6. Every method is one
 * atomic read-modify-write of the store; the breaker arithmetic is shared by every store.
 */
public interface Circuits {
    /**
     * Whether {@code owner} (a session id) may send to {@code selector} now: closed, open (with the
     * time left), or the half-open probe lease (exactly one owner at a time; the same owner asking
     * again gets the same token; a lease not released expires after {@link CircuitTimings#leaseMs}).
     */
    Admission admit(String selector, String owner, CircuitTimings timings);

    /**
     * Opens the circuit, or re-opens it with a doubled cooldown; Retry-After lengthens it but never
     * past now + the maximum. Any probe lease ends.
     *
     * @return how long the circuit stays open from now
     */
    long open(String selector, OptionalLong retryAfterMs, CircuitTimings timings);

    /** A success: the circuit closes and its doubling resets. */
    void close(String selector);

    /** Gives back a probe lease without a verdict; ignored unless {@code token} is the current one. */
    boolean release(String selector, ProbeToken token);

    /** Every record that is not idle, with the time left, for {@code get_fallback_state}. */
    List<CircuitView> list(CircuitTimings timings);
}
