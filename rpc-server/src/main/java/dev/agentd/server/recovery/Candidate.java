package dev.agentd.server.recovery;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;

/**
 * The next rung to switch to.
 *
 * @param model the target model
 * @param thinking the level to run it at, already clamped to what the model supports
 * @param chainKey the canonical chain the rung belongs to
 * @param selector the chain entry as written in the canonical chain
 */
public record Candidate(Model model, ThinkingLevel thinking, String chainKey, String selector) {}
