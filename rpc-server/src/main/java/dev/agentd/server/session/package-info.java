/**
 * {@link dev.agentd.server.session.AgentSession}: the one wiring point of a session — prompts and
 * queues, the run thread, the end-of-run recovery decision carried out (retry sleeps, chain
 * events), model and thinking control, settings toggles, state snapshots. May import every
 * package but {@code rpc} and {@code cli}; nothing here knows the wire framing.
 */
package dev.agentd.server.session;
