package dev.agentd.server.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentd.protocol.event.AgentEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The error record that replaces one the writer could not serialize (issue 22, N2), per dialect. */
class WriteFailuresTest {
    private static final Error CAUSE = new OutOfMemoryError("Java heap space");

    @Test
    void aResponseWithAnEchoedIdKeepsItAndABatchAnswersEachReply() {
        // A response whose numeric id was echoed as sent (rpc's IdEcho writes such a tree).
        ObjectNode echoed = JsonNodeFactory.instance.objectNode().put("id", 5).put("type", "response")
                .put("command", "get_messages").put("success", true);
        ObjectNode replaced = (ObjectNode) WriteFailures.replacement(echoed, CAUSE);
        assertEquals("{\"id\":5,\"type\":\"response\",\"command\":\"get_messages\",\"success\":false,"
                + "\"error\":\"could not write a get_messages response record: OutOfMemoryError: Java heap space\"}",
                replaced.toString());

        List<JsonRpcReply> batch = List.of(JsonRpcReply.result(IntNode.valueOf(1), null),
                JsonRpcReply.result(TextNode.valueOf("b"), null));
        JsonRpcError error = JsonRpcError.internal("could not write a batch reply record: OutOfMemoryError: Java heap space");
        assertEquals(List.of(JsonRpcReply.error(IntNode.valueOf(1), error), JsonRpcReply.error(TextNode.valueOf("b"),
                error)), WriteFailures.replacement(batch, CAUSE));
    }

    @Test
    void anAgentRequestOfAcpIsAnsweredWithIdNullAndLongCausesAreCut() {
        ObjectNode request = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0").put("id", 3)
                .put("method", "session/request_permission");
        assertEquals(JsonRpcReply.error(NullNode.getInstance(), JsonRpcError.internal(
                "could not write a session/request_permission record: OutOfMemoryError: Java heap space")),
                WriteFailures.replacement(request, CAUSE));

        String message = WriteFailures.message(new AgentEvent.TurnStart(), new IllegalStateException("y".repeat(5000)));
        assertEquals("could not write a turn_start record: IllegalStateException: " + "y".repeat(300) + "…", message);
    }
}
