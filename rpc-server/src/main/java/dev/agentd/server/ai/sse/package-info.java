/**
 * A small incremental server-sent-events parser ({@link dev.agentd.server.ai.sse.SseParser}):
 * reads from an {@code InputStream} as bytes arrive and hands each event to a callback; nothing
 * here knows about providers. Imports nothing from agentd.
 */
package dev.agentd.server.ai.sse;
