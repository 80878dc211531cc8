package dev.agentd.server.recovery;

import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.faux.FauxModels;

/** Fallback views for the policy tables: which rungs exist matters, not which model they are. */
final class Views {
    /** The rung every view below names. */
    static final Candidate RUNG = new Candidate(FauxModels.FAUX_2, ThinkingLevel.OFF, "p/m",
            FauxModels.FAUX_2.selector());

    private Views() {}

    /**
     * @param candidate a rung is left for an ordinary failure (and for a spent account)
     * @param offProvider a rung is left on another provider
     */
    static FallbackView view(boolean enabled, String chainKey, boolean candidate, boolean offProvider,
            boolean episodeActive) {
        return view(enabled, chainKey, candidate, offProvider, episodeActive, false);
    }

    static FallbackView view(boolean enabled, String chainKey, boolean candidate, boolean offProvider,
            boolean episodeActive, boolean probing) {
        return new FallbackView(enabled, chainKey, candidate ? RUNG : null, offProvider ? RUNG : null,
                candidate ? RUNG : null, episodeActive, probing);
    }
}
