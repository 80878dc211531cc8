package dev.agentd.server.state;

/** The answer of {@link Circuits#admit}. */
public sealed interface Admission {
    /** No open record: send. */
    record Closed() implements Admission {}

    /** Open for {@code remainingMs} more, or half-open with the probe lease held by someone else. */
    record Open(long remainingMs) implements Admission {}

    /** Half-open and this owner holds the probe lease: send exactly one request. */
    record Probe(ProbeToken token) implements Admission {}
}
