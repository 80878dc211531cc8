/**
 * The coding tools and their registry. A tool gets a call's arguments, a cancellation token and an
 * update sink; it never sees the session or the protocol. May import {@code protocol}, {@code ai}
 * (tool definitions) and {@code runtime}.
 */
package dev.agentd.server.tools;
