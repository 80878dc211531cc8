package dev.agentd.server.rpc;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;

/**
 * A JSON-RPC 2.0 notification from the daemon: {@code event} carries a session event exactly as
 * the rpc dialect writes it; {@code prompt_failed} replaces the rpc dialect's second response to a
 * prompt, since a JSON-RPC id may be answered only once.
 */
@JsonPropertyOrder({"jsonrpc", "method", "params"})
public record JsonRpcNotification(String jsonrpc, String method, Object params) {
    public static final String EVENT = "event";
    public static final String PROMPT_FAILED = "prompt_failed";

    public static JsonRpcNotification event(AgentEvent event) {
        return new JsonRpcNotification(JsonRpcReply.VERSION, EVENT, event);
    }

    /** {@code id} is the prompt's id; null (field omitted) when the prompt was itself a notification. */
    public static JsonRpcNotification promptFailed(JsonNode id, String error) {
        return new JsonRpcNotification(JsonRpcReply.VERSION, PROMPT_FAILED, new PromptFailed(id, error));
    }

    @JsonPropertyOrder({"id", "error"})
    public record PromptFailed(JsonNode id, String error) {}
}
