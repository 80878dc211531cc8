/**
 * Assembles the HTTP providers ({@link dev.agentd.server.ai.wiring.HttpProviders}): one streamer
 * over one lazily built client, shared by every HTTP provider. It sits
 * above {@code ai.http} and the providers so that {@code ai.http} need not know them (that arrow
 * would close a cycle). May import {@code ai}, {@code ai.http}, {@code ai.anthropic},
 * {@code ai.openai}, {@code ai.responses}, {@code ai.gemini}, {@code ai.bedrock}, {@code ai.vertex}
 * and {@code runtime}.
 */
package dev.agentd.server.ai.wiring;
