/**
 * The {@code google-vertex} provider: Gemini and Claude on Google Cloud's Vertex AI. The endpoint
 * rules ({@code VertexEndpoint}) and the provider are here; the bodies and streams are Gemini's
 * ({@code ai.gemini}) and Anthropic's ({@code ai.anthropic}); every {@code com.google.auth} type
 * stays in {@code GoogleAuthSupport}, loaded only by a Vertex request without an API key.
 * Transport, timeouts and error shaping come from {@code ai.http}. May import {@code protocol},
 * {@code runtime}, {@code ai}, {@code ai.http}, {@code ai.gemini} and {@code ai.anthropic}.
 */
package dev.agentd.server.ai.vertex;
