package dev.agentd.server.rpc;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.wire.ProtocolMode;

/**
 * A dialect of the pi commands ({@code rpc}, {@code jsonrpc}): it serves the daemon's one session
 * through the {@link CommandRouter} and writes that session's events.
 */
public interface PiDialect extends ProtocolMode {

    /** Writes one session event (the first is {@code ready}). */
    void emit(AgentEvent event);
}
