/**
 * The {@code openai-responses} and {@code azure-openai-responses} providers (OpenAI's Responses
 * API, direct or through an Azure OpenAI resource): request body ({@code ResponsesRequest}), event
 * mapping ({@code ResponsesStreamMapper}), Azure's URL ({@code AzureEndpoint}) and the providers.
 * Transport, timeouts and error shaping come from {@code ai.http}. May import {@code protocol},
 * {@code runtime}, {@code ai}, {@code ai.http}, {@code ai.sse} and {@code ai.catalog} (pricing).
 */
package dev.agentd.server.ai.responses;
