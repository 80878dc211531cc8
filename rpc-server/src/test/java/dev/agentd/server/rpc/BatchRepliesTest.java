package dev.agentd.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentd.server.wire.JsonRpcReply;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** A batch's array is written once, when its last expected reply arrives — possibly late. */
class BatchRepliesTest {
    private final List<Object> written = new ArrayList<>();
    private final BatchReplies batch = new BatchReplies(written::add);

    private static JsonRpcReply reply(int id) {
        return JsonRpcReply.result(new IntNode(id), null);
    }

    @Test
    void waitsForALateReplyThenWritesOneArrayInArrivalOrder() {
        Consumer<JsonRpcReply> quick = batch.expect();
        Consumer<JsonRpcReply> slow = batch.expect();
        quick.accept(reply(1));
        batch.seal();
        assertEquals(List.of(), written, "the long command has not answered yet");
        slow.accept(reply(2));
        assertEquals(List.of(List.of(reply(1), reply(2))), written);
    }

    @Test
    void doesNotWriteBeforeEveryElementWasHandedOut() {
        batch.expect().accept(reply(1));
        assertEquals(List.of(), written);
        batch.seal();
        assertEquals(List.of(List.of(reply(1))), written);
    }

    @Test
    void aBatchWithNothingToAnswerWritesNothing() {
        batch.seal();
        assertEquals(List.of(), written);
    }
}
