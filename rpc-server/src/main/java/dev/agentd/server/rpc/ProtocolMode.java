package dev.agentd.server.rpc;

import dev.agentd.protocol.event.AgentEvent;

/**
 * A wire dialect on stdin/stdout (SPEC §3 and §3.7): how events are written and how commands are
 * read. Both dialects share the {@link CommandRouter} and the one {@link RpcOutput}.
 */
public interface ProtocolMode {

    /** Writes one session event (the first is {@code ready}). */
    void emit(AgentEvent event);

    /** Reads and answers commands until stdin ends. */
    void serve();
}
