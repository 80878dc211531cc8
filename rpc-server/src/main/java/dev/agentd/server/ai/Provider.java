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

    /** False for providers that need no key: faux, and those whose credential is ambient. */
    default boolean requiresCredential() {
        return !ambientCredential();
    }

    /**
     * True for a provider that needs no key of its own because its credential comes from the
     * environment (the AWS chain, Google's Application Default Credentials): its models are offered
     * (listed, selected, expanded onto by fallback families) only when the cloud is configured —
     * a credential evident without the network, or the provider named in models.json
     * ({@code auth.AuthStore#hasCredential}). A key configured for it is still passed on.
     */
    default boolean ambientCredential() {
        return false;
    }

    /**
     * Streams one reply, reporting progress to {@code listener}. Never throws: a failure becomes a
     * message with {@code stopReason} error (with {@code errorMessage} and, when known, the
     * structured error fields) or aborted when {@code cancel} fired.
     */
    AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel);
}
