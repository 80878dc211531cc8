package dev.agentd.server.state;

/** The half-open probe lease: who holds it and which opening of the circuit it belongs to. */
public record ProbeToken(String owner, long generation) {}
