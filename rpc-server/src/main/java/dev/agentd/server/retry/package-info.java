/**
 * Retry policy, pure: error classification ({@link dev.agentd.server.retry.ErrorClassifier}),
 * overflow detection, retry hints, the retry settings, and the end-of-run decision
 * ({@link dev.agentd.server.retry.RecoveryPolicy} returning a
 * {@link dev.agentd.server.retry.RecoveryAction}). Nothing here sleeps, emits or mutates a session:
 * {@code session} carries the decisions out. May import {@code protocol} and {@code config}.
 */
package dev.agentd.server.retry;
