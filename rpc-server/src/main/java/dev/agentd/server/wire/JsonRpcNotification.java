package dev.agentd.server.wire;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.agentd.protocol.event.AgentEvent;

/**
 * A JSON-RPC 2.0 notification from the daemon: {@code event} carries a session event exactly as
 * the rpc dialect writes it. (A prompt is answered once, its failure included, so nothing else is
 * ever sent as a notification: SPEC §3.3.)
 */
@JsonPropertyOrder({"jsonrpc", "method", "params"})
public record JsonRpcNotification(String jsonrpc, String method, Object params) {
    public static final String EVENT = "event";

    public static JsonRpcNotification event(AgentEvent event) {
        return new JsonRpcNotification(JsonRpcReply.VERSION, EVENT, event);
    }
}
