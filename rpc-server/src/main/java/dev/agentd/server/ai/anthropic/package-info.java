/**
 * The {@code anthropic-messages} provider: request body ({@code AnthropicRequest}), event mapping
 * ({@code AnthropicStreamMapper}) and the provider itself. Transport, timeouts and error shaping
 * come from {@code ai.http}; message conversion from {@code ai.ContextConverter}.
 */
package dev.agentd.server.ai.anthropic;
