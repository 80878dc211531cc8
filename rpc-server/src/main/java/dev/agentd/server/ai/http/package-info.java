/**
 * HTTP plumbing shared by the real providers: the lazily built JDK client
 * ({@link dev.agentd.server.ai.http.LazyHttpClient}), one streaming exchange under connect,
 * stream-start and idle limits with abort ({@link dev.agentd.server.ai.http.StreamingExchange}),
 * turning its outcome into an assistant message ({@link dev.agentd.server.ai.http.HttpReplyStreamer}),
 * error shaping and secret redaction, and the wiring factory
 * ({@link dev.agentd.server.ai.http.HttpProviders}). Exactly one request per call; no retries.
 * Imports {@code protocol}, {@code runtime}, {@code config} (timeouts) and {@code retry}
 * (error types, retry hints).
 */
package dev.agentd.server.ai.http;
