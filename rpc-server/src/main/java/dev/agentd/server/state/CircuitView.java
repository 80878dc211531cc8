package dev.agentd.server.state;

/** One circuit as {@code get_fallback_state} lists it. */
public record CircuitView(String selector, State state, long remainingMs) {
    public enum State { OPEN, HALF_OPEN }
}
