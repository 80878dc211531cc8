/**
 * {@link dev.agentd.server.session.AgentSession}: the one wiring point of a session — prompts and
 * queues, the run thread, the end-of-run recovery decision carried out (retry sleeps, chain
 * events), model and thinking control, settings toggles, state snapshots. Model fallback is
 * wired in here and lives in {@code fallback.control}. May import {@code protocol}, {@code agent},
 * {@code ai..} (ai and its subpackages), {@code recovery}, {@code compaction}, {@code fallback.control},
 * {@code config}, {@code auth}, {@code tools}, {@code sessionfile}, {@code runtime} and {@code quota}; nothing here
 * knows the wire framing or the shared stores.
 */
package dev.agentd.server.session;
