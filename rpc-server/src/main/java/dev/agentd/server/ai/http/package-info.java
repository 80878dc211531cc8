/**
 * HTTP plumbing shared by the real providers: the lazily built JDK client
 * ({@link dev.agentd.server.ai.http.LazyHttpClient}), one streaming exchange under connect,
 * stream-start and idle limits with abort ({@link dev.agentd.server.ai.http.StreamingExchange}),
 * turning its outcome into an assistant message ({@link dev.agentd.server.ai.http.HttpReplyStreamer}),
 * error shaping and secret redaction. Exactly one request per call; no retries. The providers
 * built on it are assembled in {@code ai.wiring}. May import {@code protocol}, {@code runtime},
 * {@code ai} (error types, retry hints) and {@code ai.sse}.
 */
package dev.agentd.server.ai.http;
