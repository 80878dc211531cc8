package dev.agentd.server.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.JsonKinds;
import java.util.function.Predicate;

/**
 * Checks one JSON-RPC 2.0 request object (SPEC §3.7) before anything is dispatched. agentd does
 * this itself rather than leave it to jsonrpc4j, which accepts a missing {@code "jsonrpc"},
 * answers with the string {@code "null"} as id, truncates large numeric ids and treats
 * {@code "id":null} as a notification.
 *
 * <p>In both outcomes {@code id} is null exactly when nothing may be sent back: a request without
 * an {@code id} member is a notification. An envelope that is not a valid request is always
 * answered (-32600), with the request's id when it is a string, a number or null, else with null.
 */
public final class JsonRpcEnvelope {
    private JsonRpcEnvelope() {}

    /** The outcome of checking one request. */
    public sealed interface Result {
        /** The id to answer with; null for a notification. */
        JsonNode id();
    }

    /** A well-formed request; {@code params} is an empty object when the member was absent. */
    public record Call(JsonNode id, String method, ObjectNode params) implements Result {
        public boolean notification() {
            return id == null;
        }
    }

    /** A request answered with {@code error} (when {@code id} is non-null) without being dispatched. */
    public record Rejected(JsonNode id, JsonRpcError error) implements Result {}

    /** {@link #check(JsonNode, Predicate)} for a dialect that knows every method. */
    public static Result check(JsonNode node) {
        return check(node, method -> true);
    }

    /**
     * {@code knownMethod} tells a method that exists: positional params are refused only for one
     * that does (-32602); for any other the answer is -32601, as the specification's examples ask.
     */
    public static Result check(JsonNode node, Predicate<String> knownMethod) {
        if (!(node instanceof ObjectNode request)) {
            return invalid(NullNode.getInstance(), "expected a JSON object, got " + JsonKinds.describe(node));
        }
        JsonNode id = request.get("id");
        if (id != null && !(id.isTextual() || id.isNumber() || id.isNull())) {
            return invalid(NullNode.getInstance(),
                    "'id' must be a string, a number or null, got " + JsonKinds.describe(id));
        }
        JsonNode answerTo = id != null ? id : NullNode.getInstance();
        JsonNode version = request.get("jsonrpc");
        if (version == null) {
            return invalid(answerTo, "'jsonrpc' is missing; expected \"2.0\"");
        }
        if (!version.isTextual() || !JsonRpcReply.VERSION.equals(version.textValue())) {
            return invalid(answerTo, "'jsonrpc' must be \"2.0\", got " + version);
        }
        JsonNode method = request.get("method");
        if (method == null) {
            return invalid(answerTo, "'method' is missing");
        }
        if (!method.isTextual()) {
            return invalid(answerTo, "'method' must be a string, got " + JsonKinds.describe(method));
        }
        JsonNode params = request.get("params");
        if (params == null) {
            return new Call(id, method.textValue(), Json.mapper().createObjectNode());
        }
        if (params.isArray()) {
            if (!knownMethod.test(method.textValue())) {
                return new Rejected(id, JsonRpcError.methodNotFound(method.textValue()));
            }
            if (params.isEmpty()) {
                // No arguments by position is no arguments: valid for a method without fields.
                return new Call(id, method.textValue(), Json.mapper().createObjectNode());
            }
            // A valid request whose params agentd cannot bind: commands have named fields only.
            return new Rejected(id, JsonRpcError.invalidParams("Invalid params: positional (array) params are "
                    + "not supported; pass the command's fields as an object"));
        }
        if (!(params instanceof ObjectNode fields)) {
            return invalid(answerTo, "'params' must be an object, got " + JsonKinds.describe(params));
        }
        return new Call(id, method.textValue(), fields);
    }

    private static Rejected invalid(JsonNode id, String detail) {
        return new Rejected(id, JsonRpcError.invalidRequest(detail));
    }
}
