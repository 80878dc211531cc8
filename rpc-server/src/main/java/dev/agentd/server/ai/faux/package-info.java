/**
 * The embedded faux provider and its script queues (SPEC §6.2–6.3). May import {@code protocol},
 * {@code ai} and {@code runtime}.
 */
package dev.agentd.server.ai.faux;
