package dev.agentd.server.fallback.control;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelChoice;

/**
 * The session's model as fallback sees it: the one port through which the controller reads the
 * current choice and switches it (the session's {@code ModelControl} implements it). Switches made
 * here are never persisted as the default and are journalled with their reason and the episode's
 * original (FALLBACK §5.3).
 */
public interface ModelSeat {
    /** The model and thinking level in force, as one snapshot. */
    ModelChoice choice();

    /** Switches to {@code to} at {@code level} as a fallback of {@code original}. */
    void switchForFallback(Model to, ThinkingLevel level, Model original);

    /** Returns to the episode's {@code original} at {@code level}. */
    void revertTo(Model original, ThinkingLevel level);
}
