/**
 * Compaction building blocks, pure except for the model call they are given: settings, token
 * estimates, where to cut, and the summary request. The decision to compact is in
 * {@code recovery.RecoveryPolicy}; carrying it out (events, the session file) is in {@code session}.
 * May import {@code protocol}, {@code config} and {@code runtime}.
 */
package dev.agentd.server.compaction;
