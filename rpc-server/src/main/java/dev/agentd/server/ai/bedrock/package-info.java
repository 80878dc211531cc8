/**
 * The {@code bedrock-converse-stream} provider (Amazon Bedrock's ConverseStream API): request
 * body ({@code BedrockRequest}), event mapping ({@code BedrockStreamMapper}) and the provider.
 * Every AWS SDK type (credentials, SigV4, event-stream frames) stays in {@code AwsSupport}, loaded
 * only by a Bedrock request. Transport, timeouts and error shaping come from {@code ai.http}.
 * May import {@code protocol}, {@code runtime}, {@code ai}, {@code ai.http}, {@code ai.sse} and
 * {@code ai.catalog} (pricing).
 */
package dev.agentd.server.ai.bedrock;
