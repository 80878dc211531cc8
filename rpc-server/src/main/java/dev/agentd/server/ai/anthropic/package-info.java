/**
 * The {@code anthropic-messages} provider: request body ({@code AnthropicRequest}), event mapping
 * ({@code AnthropicStreamMapper}) and the provider itself. Transport, timeouts and error shaping
 * come from {@code ai.http}; message conversion from {@code ai.ContextConverter}. May import
 * {@code protocol}, {@code runtime}, {@code ai}, {@code ai.http}, {@code ai.sse} and
 * {@code ai.catalog} (pricing).
 */
package dev.agentd.server.ai.anthropic;
