/**
 * The wire dialects: framing stdin into commands, routing each to the session
 * ({@link dev.agentd.server.rpc.CommandRouter}, shared by both dialects) and writing every
 * response and event through the one output. May import {@code session} and below.
 */
package dev.agentd.server.rpc;
