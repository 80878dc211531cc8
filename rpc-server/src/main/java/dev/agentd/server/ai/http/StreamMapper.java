package dev.agentd.server.ai.http;

import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.sse.SseEvent;

/**
 * Turns one API's SSE events into {@link dev.agentd.server.ai.AssistantMessageBuilder} calls and,
 * at the end, says how the reply ended. One instance per request, used on the reading thread.
 */
public interface StreamMapper {

    /** Handles one event; false stops reading (the terminal event, or an in-band failure). */
    boolean onEvent(SseEvent event);

    /** How the reply ended once the body ended or {@link #onEvent} returned false. */
    Outcome outcome();

    /** True once the reply is final, so that a transport failure afterwards changes nothing. */
    default boolean complete() {
        return false;
    }

    sealed interface Outcome {
        record Done(StopReason stopReason) implements Outcome {}

        record Failed(ProviderError error) implements Outcome {}
    }
}
