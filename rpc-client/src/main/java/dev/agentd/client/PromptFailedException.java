package dev.agentd.client;

import dev.agentd.protocol.event.AgentEvent;
import java.util.List;

/**
 * A prompt answered {@code success:false} (SPEC §3.3: one answer per prompt): refused on the spot
 * (busy, empty) or failed its preflight (no model, no credential, …); no run follows.
 * {@link #events()} holds whatever was collected meanwhile (normally nothing).
 */
public class PromptFailedException extends RpcException {
    private static final long serialVersionUID = 1L;

    private final transient List<AgentEvent> events;

    public PromptFailedException(String message, String serverError, String stderr, List<AgentEvent> events,
            Throwable cause) {
        super(message, "prompt", serverError, stderr, cause);
        this.events = events == null ? List.of() : List.copyOf(events);
    }

    public List<AgentEvent> events() {
        return events;
    }
}
