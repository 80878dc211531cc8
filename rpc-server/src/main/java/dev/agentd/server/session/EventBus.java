package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans session events out to listeners (the RPC writer, the session file, in-process callers),
 * synchronously and in emission order. A failing listener is logged and skipped, never allowed to
 * break the run that emitted the event.
 */
public final class EventBus {
    private static final Logger LOG = LoggerFactory.getLogger(EventBus.class);
    private final CopyOnWriteArrayList<Consumer<AgentEvent>> listeners = new CopyOnWriteArrayList<>();

    /** Adds a listener; the returned action removes it. */
    public Runnable subscribe(Consumer<AgentEvent> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    public void publish(AgentEvent event) {
        for (Consumer<AgentEvent> listener : listeners) {
            try {
                listener.accept(event);
            } catch (RuntimeException e) {
                LOG.warn("event listener failed on {}: {}", event.type(), e.toString());
            }
        }
    }
}
