package dev.agentd.server.session;

import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.fallback.control.TurnBoundary;

/**
 * Tells fallback about the model changes it did not make: a user's {@code set_model} or
 * {@code cycle_model} and a resumed session's model end the episode (FALLBACK §5.3); a user's
 * thinking level is kept by a later revert.
 */
final class FallbackObserver implements ModelControl.Observer {
    private final TurnBoundary boundary;

    FallbackObserver(TurnBoundary boundary) {
        this.boundary = boundary;
    }

    @Override
    public void modelChanged(ModelControl.Switched change) {
        ModelControl.Source source = change.source();
        if (!source.fallback()) {
            boolean byUser = source == ModelControl.Source.SET || source == ModelControl.Source.CYCLE;
            boundary.modelChosen(change.now().model(), byUser, source.wire());
        }
    }

    @Override
    public void thinkingChanged(ModelChoice now) {
        boundary.thinkingChosen();
    }
}
