/**
 * Session files: pi's version-3 JSONL format as a tree of entries (messages, model and thinking
 * changes, compactions, names), lazy crash-tolerant writing, loading, forking and rebuilding the
 * working context from the current branch. May import {@code protocol} and {@code runtime} (the
 * own-file check).
 */
package dev.agentd.server.sessionfile;
