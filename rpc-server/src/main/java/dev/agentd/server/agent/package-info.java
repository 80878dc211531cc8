/**
 * The agent loop: turns, tool execution, steering and follow-up queues, the working context.
 * Knows nothing of retry, persistence or the protocol's framing: it emits events and returns a
 * {@link dev.agentd.server.agent.RunOutcome}. May import {@code protocol}, {@code ai},
 * {@code tools} and {@code runtime}.
 */
package dev.agentd.server.agent;
