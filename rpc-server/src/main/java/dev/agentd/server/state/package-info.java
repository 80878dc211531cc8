/**
 * Recovery state shared beyond one session (FALLBACK §6, SPEC §5.6): circuit breakers and
 * credential usage-limit blocks, behind {@link dev.agentd.server.state.SharedState} so that the
 * policy never knows whether the state lives in this process, in {@code <agentDir>/circuits.json}
 * for every agentd on the machine, or in Redis for a fleet. May import {@code config} and
 * {@code runtime}.
 *
 * <p>Each store owns its clock (epoch milliseconds: the machine's for the file store, the
 * server's {@code TIME} for Redis), so callers never pass a "now" that another machine would not
 * agree with. Every read-modify-write is one atomic operation of the store.
 */
package dev.agentd.server.state;
