package dev.agentd.server.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.JsonTrees;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.protocol.response.Response;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** How responses, errors and notifications of the JSON-RPC dialect look on the wire. */
class JsonRpcRecordsTest {

    /** What the daemon writes (replies as their own trees), checked against the mapper's form. */
    private static String json(Object record) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        new JsonlWriter(out, Json.mapper()).write(record);
        String written = out.toString(java.nio.charset.StandardCharsets.UTF_8).stripTrailing();
        assertEquals(Json.mapper().writeValueAsString(record), written, "the tree and the mapper agree");
        return written;
    }

    @Test
    void aReplyAsDeepAsALongSessionsTreeIsWrittenWholeAlsoInABatch() throws IOException {
        int depth = 6000; // get_tree of 3000 entries on one chain; the mapper stops at 1000
        String nested = "[".repeat(depth) + "]".repeat(depth);
        JsonRpcReply reply = JsonRpcReply.result(new IntNode(1), JsonTrees.readDaemonOutput(
                nested.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        for (Object record : new Object[] {reply, java.util.List.of(reply)}) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            new JsonlWriter(out, Json.mapper()).write(record);
            assertTrue(out.toString(java.nio.charset.StandardCharsets.UTF_8).contains("\"result\":" + nested + "}"));
        }
    }

    @Test
    void successCarriesTheDataAsResult() throws IOException {
        Response ok = Response.ok("x", "get_retry_settings", Json.mapper().readTree("{\"enabled\":true}"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"result\":{\"enabled\":true}}",
                json(JsonRpcReply.of(new TextNode("r1"), ok)));
    }

    @Test
    void successWithoutDataHasAnExplicitNullResult() throws IOException {
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":null}",
                json(JsonRpcReply.of(new IntNode(4), Response.ok("x", "abort", null))));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":null}",
                json(JsonRpcReply.of(new IntNode(4), Response.ok("x", "cycle_model", NullNode.getInstance()))));
    }

    @Test
    void failureIsCommandFailedWithTheMessage() throws IOException {
        Response failed = Response.failure("x", "set_model", "Model not found: a/b");
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"error\":{\"code\":-32000,\"message\":\"Model not found: a/b\"}}",
                json(JsonRpcReply.of(new TextNode("s"), failed)));
    }

    @Test
    void anUnusableIdIsWrittenAsNull() throws IOException {
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: x\"}}",
                json(JsonRpcReply.error(null, JsonRpcError.parseError("x"))));
    }

    @Test
    void eventsAreNotificationsCarryingTheRpcEventObject() throws IOException {
        AgentEvent event = new AgentEvent.AutoRetryEnd(false, 2, "boom");
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"event\",\"params\":" + json(event) + "}",
                json(JsonRpcNotification.event(event)));
    }
}
