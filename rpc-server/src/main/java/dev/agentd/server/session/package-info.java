/**
 * {@link dev.agentd.server.session.AgentSession}: the one wiring point of a session — prompts and
 * queues, the run thread, the end-of-run recovery decision carried out (retry sleeps, chain
 * events), model and thinking control, settings toggles, state snapshots. May import every
 * package but {@code rpc}, {@code acp}, {@code cli}, {@code commands} and {@code export} (pi 0.73
 * extras the router owns); nothing here knows the wire framing.
 */
package dev.agentd.server.session;
