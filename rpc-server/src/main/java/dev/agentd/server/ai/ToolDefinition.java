package dev.agentd.server.ai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;

/** A tool as announced to a model: name, description and JSON schema of its arguments. */
public record ToolDefinition(String name, String description, JsonNode parameters) {
    /**
     * The argument schema to send: {@link #parameters} when it is an object, else the empty object
     * schema (providers reject a tool without one).
     */
    public JsonNode schemaOrEmpty() {
        if (parameters != null && parameters.isObject()) {
            return parameters;
        }
        ObjectNode empty = Json.mapper().createObjectNode();
        empty.put("type", "object");
        empty.putObject("properties");
        return empty;
    }
}
