/**
 * The {@code google-generative-ai} provider (Gemini API): request body ({@code GeminiRequest}),
 * SSE chunk mapping ({@code GeminiStreamMapper}), the error body's status ({@code GeminiErrors})
 * and the provider itself. Transport, timeouts and error shaping come from {@code ai.http}. May
 * import {@code protocol}, {@code runtime}, {@code ai}, {@code ai.http}, {@code ai.sse} and
 * {@code ai.catalog} (pricing).
 */
package dev.agentd.server.ai.gemini;
