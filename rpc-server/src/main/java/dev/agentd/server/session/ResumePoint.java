package dev.agentd.server.session;

import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.sessionfile.SessionEntry;
import java.util.List;

/**
 * The model and thinking level a resumed session continues with, read from the model and
 * thinking entries of its branch (FALLBACK §5.6). A fallback is never resumed: its first
 * {@code reason:"fallback"} entry opens a window in which the restored model stays the original
 * one; a {@code fallback-revert} closes the window and returns to the level from before it; a
 * plain (user) change closes it and keeps the level set inside it; a window still open at the end
 * (the process stopped mid-episode) resumes on the original model at the level from before it.
 * Unknown reasons count as plain changes; a fallback entry without its original keeps the model
 * from before the window; a revert without a window is ignored.
 *
 * @param provider null when the branch names no model (keep the current one)
 * @param thinkingLevel null when the branch names no level (keep the current one)
 */
record ResumePoint(String provider, String modelId, ThinkingLevel thinkingLevel) {
    static final String FALLBACK = ModelControl.Source.FALLBACK.wire();
    static final String FALLBACK_REVERT = ModelControl.Source.FALLBACK_REVERT.wire();

    static ResumePoint of(List<SessionEntry> branch) {
        String provider = null;
        String modelId = null;
        ThinkingLevel thinking = null;
        boolean inWindow = false;
        ThinkingLevel beforeWindow = null;
        for (SessionEntry entry : branch) {
            if (entry instanceof SessionEntry.ThinkingLevelChange change) {
                thinking = ThinkingLevel.parse(change.thinkingLevel()).orElse(thinking);
            } else if (entry instanceof SessionEntry.ModelChange change) {
                if (FALLBACK.equals(change.reason())) {
                    if (!inWindow) {
                        inWindow = true;
                        beforeWindow = thinking;
                        if (change.originalProvider() != null && change.originalModelId() != null) {
                            provider = change.originalProvider();
                            modelId = change.originalModelId();
                        }
                    }
                } else if (FALLBACK_REVERT.equals(change.reason())) {
                    if (inWindow) {
                        inWindow = false;
                        thinking = beforeWindow;
                        provider = change.provider();
                        modelId = change.modelId();
                    }
                } else {
                    inWindow = false;
                    provider = change.provider();
                    modelId = change.modelId();
                }
            }
        }
        return new ResumePoint(provider, modelId, inWindow ? beforeWindow : thinking);
    }
}
