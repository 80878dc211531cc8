package dev.agentd.client;

import dev.agentd.protocol.event.AgentEvent;
import java.util.List;

/**
 * A prompt the daemon had accepted failed before running (no model, no credential, …): the daemon
 * sent a second response with the prompt's id and {@code success:false} (SPEC §3.3). Terminal for
 * that prompt; {@link #events()} holds whatever was collected before the failure.
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
