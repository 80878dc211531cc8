/**
 * Model fallback carried out — the side-effecting half of fallback, beside its pure rules in
 * {@code fallback}: {@link dev.agentd.server.fallback.control.FallbackSwitch} (the end-of-run view
 * and switch), {@link dev.agentd.server.fallback.control.TurnBoundary} (revert, open-circuit skip,
 * the user's model choices), the episode, {@link dev.agentd.server.fallback.control.ModelHealth}
 * (tried set, cooldowns), {@link dev.agentd.server.fallback.control.CircuitAccess} (the shared
 * breakers), {@link dev.agentd.server.fallback.control.ProbeBack}, the cooldown rules and the
 * fallback commands. It reaches the session's model only through
 * {@link dev.agentd.server.fallback.control.ModelSeat}. May import {@code protocol}, {@code ai},
 * {@code recovery}, {@code fallback}, {@code config}, {@code runtime} and {@code state}.
 */
package dev.agentd.server.fallback.control;
