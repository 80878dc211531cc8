package dev.agentd.protocol.response;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * The answer to one command (SPEC §3.3). {@code data} is omitted when the command has no payload;
 * a {@link NullNode} writes the literal {@code "data":null} that pi's cycle commands use.
 */
@JsonPropertyOrder({"id", "type", "command", "success", "data", "error"})
public record Response(String id, String command, boolean success, JsonNode data, String error) {

    public static final String TYPE = "response";

    @JsonProperty("type")
    public String type() {
        return TYPE;
    }

    public static Response ok(String id, String command, JsonNode data) {
        return new Response(id, command, true, data, null);
    }

    public static Response failure(String id, String command, String error) {
        return new Response(id, command, false, null, error == null || error.isBlank() ? "Unknown error" : error);
    }
}
