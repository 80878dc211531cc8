package dev.agentd.server.ai;

import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.response.RateLimits;

/** Receives the progress of one streamed reply. Called on the streaming thread, in order. */
public interface StreamListener {

    /**
     * Whether events should carry a snapshot of the partial message. False in delta update mode,
     * which spares building a snapshot per delta.
     */
    boolean wantsPartials();

    /** The reply has started (the provider's "start"); {@code partial} is empty. */
    void onStart(AgentMessage.Assistant partial);

    /**
     * A content change: text/thinking/toolcall start, delta or end; {@code usage} is the reply's
     * latest cumulative usage as the provider reported it so far (zero until it reports any).
     */
    void onEvent(AssistantMessageEvent event, Usage usage);

    /**
     * The reply's rate-limit headers, once per reply that had any (successful or not), before its
     * first event. Most listeners do not care.
     */
    default void onRateLimits(RateLimits limits) {}

    /** A listener that ignores everything (summaries, probes). */
    StreamListener NONE = new StreamListener() {
        @Override
        public boolean wantsPartials() {
            return false;
        }

        @Override
        public void onStart(AgentMessage.Assistant partial) {}

        @Override
        public void onEvent(AssistantMessageEvent event, Usage usage) {}
    };
}
