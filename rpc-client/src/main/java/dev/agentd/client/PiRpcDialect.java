package dev.agentd.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Response;

/** pi's RPC records: commands with {@code id}, {@code type:"response"} answers, bare events. */
final class PiRpcDialect implements WireDialect {

    @Override
    public JsonNode encode(String id, Command command) {
        return CommandCodec.encode(id, command);
    }

    @Override
    public Inbound decode(JsonNode record) {
        if (!(record instanceof ObjectNode object)) {
            return new Inbound.Invalid("expected a JSON object, got " + record.getNodeType());
        }
        JsonNode type = object.get("type");
        if (type != null && Response.TYPE.equals(type.asText())) {
            try {
                return new Inbound.Reply(Json.mapper().treeToValue(object, Response.class));
            } catch (Exception e) {
                return new Inbound.Invalid("malformed response: " + e.getMessage());
            }
        }
        return event(object);
    }

    /** An event object, typed; also the params of the JSON-RPC dialect's event notifications. */
    static Inbound.Event event(ObjectNode object) {
        try {
            return new Inbound.Event(Json.mapper().treeToValue(object, AgentEvent.class), null);
        } catch (Exception e) {
            // A known type with unexpected fields: still deliver it, as its raw JSON.
            return new Inbound.Event(new AgentEvent.Unknown(object),
                    "malformed " + object.get("type") + " event kept as Unknown: " + e.getMessage());
        }
    }
}
