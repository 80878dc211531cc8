package dev.agentd.server.session;

/** A prompt refused on the spot (busy without streamingBehavior, empty message): nothing ran. */
public final class PromptRejectedException extends RuntimeException {
    public PromptRejectedException(String message) {
        super(message);
    }
}
