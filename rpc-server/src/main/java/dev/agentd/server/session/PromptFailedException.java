package dev.agentd.server.session;

/**
 * An accepted prompt that failed before its run started (no model, no credential): no agent event
 * was emitted. The RPC layer reports it as a second response to the prompt (SPEC §3.3).
 */
public final class PromptFailedException extends RuntimeException {
    public PromptFailedException(String message) {
        super(message);
    }
}
