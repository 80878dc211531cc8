/**
 * The {@code openai-completions} provider for OpenAI and compatible servers: request body
 * ({@code OpenAiRequest}), chunk mapping ({@code OpenAiStreamMapper}) and the provider itself.
 * Transport, timeouts and error shaping come from {@code ai.http}. May import {@code protocol},
 * {@code runtime}, {@code ai}, {@code ai.http}, {@code ai.sse} and {@code ai.catalog} (pricing).
 */
package dev.agentd.server.ai.openai;
