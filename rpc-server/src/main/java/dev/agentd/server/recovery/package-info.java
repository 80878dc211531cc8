/**
 * The recovery decision, pure: error classification ({@link dev.agentd.server.recovery.ErrorClassifier}),
 * overflow detection, the retry settings, and the end-of-run decision
 * ({@link dev.agentd.server.recovery.RecoveryPolicy} returning a
 * {@link dev.agentd.server.recovery.RecoveryAction}) — which covers retrying, and compacting when
 * no retry starts. Nothing here sleeps, emits or mutates a session: {@code session} carries the
 * decisions out. May import {@code protocol}, {@code ai} (facts about provider replies),
 * {@code compaction} (its settings) and {@code config}. The outcomes a decision names — switch
 * reasons, limit scopes, the rung to switch to — are defined here, so fallback builds on recovery
 * and never the other way round.
 */
package dev.agentd.server.recovery;
