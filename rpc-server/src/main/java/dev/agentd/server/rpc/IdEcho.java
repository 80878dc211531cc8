package dev.agentd.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentd.protocol.json.WireTrees;
import dev.agentd.protocol.response.Response;

/**
 * Puts a request's id on its response exactly as it was sent (SPEC §3.3, as pi 0.73 does): a
 * string, a number ({@code 5} stays {@code 5}), {@code null}, or — on the error that refuses it —
 * any other JSON value. {@link Response} carries ids as text for the typed client, which only
 * sends strings, so only the other kinds need the record rewritten here.
 */
final class IdEcho {
    private IdEcho() {}

    /** The record to write for {@code response} answering a request whose id node was {@code id}. */
    static Object answer(Response response, JsonNode id) {
        if (id == null || id.isTextual()) {
            return response; // absent, or the text the record already carries
        }
        ObjectNode fields = WireTrees.response(response);
        fields.remove("id");
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("id", id);
        out.setAll(fields);
        return out;
    }
}
