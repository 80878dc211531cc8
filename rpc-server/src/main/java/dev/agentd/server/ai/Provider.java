package dev.agentd.server.ai;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.runtime.CancellationToken;

/**
 * One model API (anthropic-messages, openai-completions, faux). A call streams exactly one
 * assistant reply with exactly one upstream request: no retry loop below the session (SPEC §5.4).
 */
public interface Provider {

    /** The {@code api} name models refer to. */
    String api();

    /** False for providers that need no credential (faux). */
    default boolean requiresCredential() {
        return true;
    }

    /**
     * Streams one reply, reporting progress to {@code listener}. Never throws: a failure becomes a
     * message with {@code stopReason} error (with {@code errorMessage} and, when known, the
     * structured error fields) or aborted when {@code cancel} fired.
     */
    AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel);
}
