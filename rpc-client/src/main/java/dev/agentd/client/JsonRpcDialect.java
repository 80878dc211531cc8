package dev.agentd.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Response;

/**
 * JSON-RPC 2.0 records (SPEC §3.7): a command is a request whose method is the command's name and
 * whose params are its fields; a result or error object answers it ({@code success:false} with the
 * error's message); events arrive as {@code event} notifications.
 */
final class JsonRpcDialect implements WireDialect {
    private static final String VERSION = "2.0";

    @Override
    public JsonNode encode(String id, Command command) {
        ObjectNode params = CommandCodec.encode(null, command);
        params.remove("type");
        ObjectNode request = Json.mapper().createObjectNode();
        request.put("jsonrpc", VERSION);
        request.put("id", id);
        request.put("method", command.type());
        request.set("params", params);
        return request;
    }

    @Override
    public Inbound decode(JsonNode record) {
        if (!(record instanceof ObjectNode object)) {
            return new Inbound.Invalid("expected a JSON object, got " + record.getNodeType());
        }
        if (!VERSION.equals(object.path("jsonrpc").asText(null))) {
            return new Inbound.Invalid("not a JSON-RPC 2.0 message");
        }
        JsonNode method = object.get("method");
        if (method != null) {
            return notification(method.asText(), object.path("params"));
        }
        String id = idText(object.get("id"));
        JsonNode error = object.get("error");
        if (error != null) {
            String message = error.path("message").asText(null);
            return new Inbound.Reply(Response.failure(id, null, message));
        }
        if (object.has("result")) {
            return new Inbound.Reply(Response.ok(id, null, object.get("result")));
        }
        return new Inbound.Invalid("neither a notification nor a response");
    }

    private static Inbound notification(String method, JsonNode params) {
        if (!(params instanceof ObjectNode fields)) {
            return new Inbound.Invalid(method + " notification without params object");
        }
        return switch (method) {
            case "event" -> PiRpcDialect.event(fields);
            default -> new Inbound.Invalid("unknown notification " + method);
        };
    }

    /** Ids are compared as text: the client sends strings, and a null id answers no request. */
    private static String idText(JsonNode id) {
        return id == null || id.isNull() || id.isContainerNode() ? null : id.asText();
    }
}
