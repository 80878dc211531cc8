package dev.agentd.server.wire;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.WireTree;
import dev.agentd.protocol.response.Response;

/**
 * A JSON-RPC 2.0 response object: exactly one of {@code result} and {@code error}. {@code id} is
 * the request's own JSON value (string, number or null), echoed as it came — numbers stay numbers,
 * and a {@link NullNode} writes the literal {@code "id":null} the spec asks for when the request's
 * id could not be read.
 */
@JsonPropertyOrder({"jsonrpc", "id", "result", "error"})
public record JsonRpcReply(String jsonrpc, JsonNode id, JsonNode result, JsonRpcError error) implements WireTree {
    public static final String VERSION = "2.0";

    public JsonRpcReply {
        id = id == null ? NullNode.getInstance() : id;
    }

    /** A success; a missing {@code data} becomes {@code "result":null} (the member is required). */
    public static JsonRpcReply result(JsonNode id, JsonNode data) {
        return new JsonRpcReply(VERSION, id, data == null ? NullNode.getInstance() : data, null);
    }

    public static JsonRpcReply error(JsonNode id, JsonRpcError error) {
        return new JsonRpcReply(VERSION, id, null, error);
    }

    /**
     * This reply as a tree, written as the mapper would write the record but without its recursion
     * (and its nesting limit): a {@code get_tree} result is as deep as the session is long.
     */
    @Override
    public ObjectNode tree() {
        ObjectNode tree = JsonNodeFactory.instance.objectNode();
        tree.put("jsonrpc", jsonrpc);
        tree.set("id", id);
        if (result != null) {
            tree.set("result", result);
        }
        if (error != null) {
            tree.putObject("error").put("code", error.code()).put("message", error.message());
        }
        return tree;
    }

    /** The router's answer in this dialect: data → result, {@code success:false} → error -32000. */
    public static JsonRpcReply of(JsonNode id, Response response) {
        return response.success() ? result(id, response.data())
                : error(id, JsonRpcError.commandFailed(response.error()));
    }
}
