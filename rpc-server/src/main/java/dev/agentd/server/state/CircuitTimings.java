package dev.agentd.server.state;

/**
 * @param cooldownMs first open duration C ({@code fallback.circuitCooldownMs})
 * @param maxCooldownMs cap M on the doubled duration and on Retry-After ({@code fallback.circuitMaxCooldownMs})
 * @param leaseMs how long an unreleased probe lease lives (the stream-start timeout): a crashed
 *     holder's lease expires
 */
public record CircuitTimings(long cooldownMs, long maxCooldownMs, long leaseMs) {}
