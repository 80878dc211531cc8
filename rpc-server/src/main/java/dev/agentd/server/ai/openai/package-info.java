/**
 * The {@code openai-completions} provider for OpenAI and compatible servers: request body
 * ({@code OpenAiRequest}), chunk mapping ({@code OpenAiStreamMapper}) and the provider itself.
 * Transport, timeouts and error shaping come from {@code ai.http}.
 */
package dev.agentd.server.ai.openai;
