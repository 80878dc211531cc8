/**
 * Model fallback building blocks, pure except FallbackLog's file I/O behind an interface; their
 * effects are carried out in {@code fallback.control}. May import {@code protocol}, {@code ai},
 * {@code recovery} (the outcomes a decision names), {@code config} and {@code runtime}.
 *
 * <p>Pieces (SPEC §5 and the fallback design, FALLBACK §1–§7): {@link dev.agentd.server.fallback.FallbackSettings}
 * reads the settings; {@link dev.agentd.server.fallback.Selector} and
 * {@link dev.agentd.server.fallback.FallbackCatalog} parse and resolve {@code provider/id[:thinking]} and
 * bare family selectors; {@link dev.agentd.server.fallback.Chains} canonicalizes the configured
 * chains (memoized by {@link dev.agentd.server.fallback.ChainsMemo}) and resolves chain keys;
 * {@link dev.agentd.server.fallback.CandidateScan} picks the next rung;
 * {@link dev.agentd.server.fallback.Cooldowns}, {@link dev.agentd.server.fallback.Pins} and
 * {@link dev.agentd.server.fallback.RevertRule} hold the per-session state rules; and
 * {@link dev.agentd.server.fallback.FallbackLog} writes the scrubbed debug log. Nothing here
 * switches models, emits events or reads a clock by itself: {@code fallback.control} does, passing
 * monotonic {@code nowMs} values in.
 */
package dev.agentd.server.fallback;
