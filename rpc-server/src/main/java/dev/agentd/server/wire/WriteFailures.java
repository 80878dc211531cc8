package dev.agentd.server.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.response.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * What the writer puts on stdout in place of a record it could not serialize (issue 22, N2: an
 * {@code OutOfMemoryError} on a huge {@code message_end}): an error record of the record's own
 * dialect naming the record and the cause, e.g. {@code could not write a message_end record:
 * OutOfMemoryError: Java heap space}. Pure; the dialect is read off the record itself, since the
 * three dialects share one writer.
 *
 * <ul>
 *   <li>a response (rpc dialect) keeps its id and command and becomes {@code success:false}, so
 *       the request still gets its one answer; an event becomes a response without id, command
 *       {@code "write"} (as a line that cannot be parsed becomes one with command {@code "parse"});</li>
 *   <li>a JSON-RPC reply (the jsonrpc and acp dialects) keeps its id and becomes error -32603; a
 *       batch becomes one such error per reply; a notification or an agent request becomes error
 *       -32603 with {@code "id":null}, JSON-RPC's reply to no request it can name.</li>
 * </ul>
 */
final class WriteFailures {
    /** The cause's message is the JDK's or Jackson's; a short one says enough. */
    static final int MAX_CAUSE_CHARS = 300;
    /** Kinds are agentd's own names, but a method name may be a client's. */
    static final int MAX_KIND_CHARS = 64;
    /** The pseudo-command of an rpc-dialect error that answers no request. */
    static final String WRITE_COMMAND = "write";

    private WriteFailures() {}

    /** The record to write instead of {@code failed}. */
    static Object replacement(Object failed, Throwable cause) {
        String message = message(failed, cause);
        if (failed instanceof Response response) {
            return Response.failure(response.id(), response.command(), message);
        }
        if (failed instanceof JsonRpcReply reply) {
            return JsonRpcReply.error(reply.id(), JsonRpcError.internal(message));
        }
        if (failed instanceof JsonRpcNotification) {
            return JsonRpcReply.error(NullNode.getInstance(), JsonRpcError.internal(message));
        }
        if (failed instanceof List<?> batch) {
            List<JsonRpcReply> errors = new ArrayList<>();
            for (Object element : batch) {
                errors.add(JsonRpcReply.error(element instanceof JsonRpcReply reply ? reply.id() : null,
                        JsonRpcError.internal(message)));
            }
            return errors.isEmpty() ? JsonRpcReply.error(null, JsonRpcError.internal(message)) : errors;
        }
        if (failed instanceof ObjectNode node && node.has("jsonrpc")) {
            boolean reply = node.has("id") && !node.has("method");
            return JsonRpcReply.error(reply ? node.get("id") : null, JsonRpcError.internal(message));
        }
        if (failed instanceof ObjectNode node && Response.TYPE.equals(node.path("type").asText(null))) {
            ObjectNode answer = JsonNodeFactory.instance.objectNode(); // a response with an echoed id (IdEcho)
            if (node.has("id")) {
                answer.set("id", node.get("id"));
            }
            answer.put("type", Response.TYPE);
            answer.set("command", node.get("command"));
            answer.put("success", false);
            answer.put("error", message);
            return answer;
        }
        return Response.failure(null, WRITE_COMMAND, message);
    }

    /** {@code could not write a <kind> record: <cause>}. */
    static String message(Object failed, Throwable cause) {
        String detail = cause.getMessage() == null || cause.getMessage().isBlank() ? ""
                : ": " + cut(cause.getMessage().strip(), MAX_CAUSE_CHARS);
        return "could not write a " + cut(kind(failed), MAX_KIND_CHARS) + " record: " + cause.getClass().getSimpleName()
                + detail;
    }

    /** The record as a reader names it: an event's type, a response's command, a JSON-RPC method. */
    static String kind(Object record) {
        if (record instanceof AgentEvent event) {
            return event.type();
        }
        if (record instanceof Response response) {
            return response.command() + " response";
        }
        if (record instanceof JsonRpcNotification notification) {
            return notification.params() instanceof AgentEvent event ? event.type() : notification.method();
        }
        if (record instanceof JsonRpcReply || record instanceof List<?>) {
            return record instanceof List<?> ? "batch reply" : "reply";
        }
        if (record instanceof JsonNode node) {
            JsonNode method = node.path("method");
            if (method.isTextual()) {
                return method.textValue();
            }
            JsonNode type = node.path("type");
            if (type.isTextual()) {
                return Response.TYPE.equals(type.textValue()) ? node.path("command").asText() + " response"
                        : type.textValue();
            }
            return "reply";
        }
        return record == null ? "null" : record.getClass().getSimpleName();
    }

    private static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "…";
    }
}
