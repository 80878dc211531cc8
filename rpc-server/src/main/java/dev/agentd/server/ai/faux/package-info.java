/** The embedded faux provider and its script queues (SPEC §6.2–6.3). */
package dev.agentd.server.ai.faux;
