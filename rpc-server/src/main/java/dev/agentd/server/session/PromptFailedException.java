package dev.agentd.server.session;

/**
 * A prompt that failed its preflight on the run thread (no model, no credential): no agent event
 * was emitted and no success answer was given. The RPC layer reports it as the prompt's one
 * {@code success:false} response (SPEC §3.3).
 */
public final class PromptFailedException extends RuntimeException {
    public PromptFailedException(String message) {
        super(message);
    }
}
