/**
 * The fleet store: {@link dev.agentd.server.state.SharedState} over Redis, for agentd processes
 * on many machines. A minimal RESP2 client of its own (bounded replies, a deadline per call), one
 * Lua script per read-modify-write (the scripts beside the classes document the keys and the
 * breaker arithmetic), and a link that falls back to process-local state while Redis is down and
 * reconnects in the background. May import {@code state} and {@code runtime}.
 */
package dev.agentd.server.state.redis;
