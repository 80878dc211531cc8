package dev.agentd.server.wire;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.response.Response;
import dev.agentd.server.runtime.OutputBackpressure;
import dev.agentd.server.testing.FakeScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 22 on the queue alone: the writer survives any failure of one record (N2), and a producer
 * waiting for room is reported to the output gauge the stream watchdogs read (N3).
 */
class OutputQueueFailuresTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final List<Object> written = Collections.synchronizedList(new ArrayList<>());

    private static AgentEvent.MessageEnd messageEnd(String text) {
        return new AgentEvent.MessageEnd(new AgentMessage.Assistant(List.of(new ContentBlock.Text(text, null)), "api",
                "p", "m", Usage.ZERO, StopReason.STOP, null, 1L));
    }

    @Test
    void anOutOfMemoryErrorOnOneRecordLeavesAnErrorRecordAndTheWriterThreadAlive() {
        AgentEvent.MessageEnd huge = messageEnd("huge");
        OutputQueue queue = new OutputQueue(record -> {
            if (record == huge) {
                throw new OutOfMemoryError("Required array length 2147483639 + 3666 is too large");
            }
            written.add(record);
        }, e -> { }, 8).start("test-stdout");
        queue.offer(new AgentEvent.TurnStart());
        queue.offer(huge);
        queue.offer(new AgentEvent.AgentEnd(List.of(), false));
        assertTrue(queue.drain(BOUND.toSeconds(), TimeUnit.SECONDS));
        assertEquals(3, written.size(), written.toString());
        assertEquals(Response.failure(null, "write", "could not write a message_end record: OutOfMemoryError: "
                + "Required array length 2147483639 + 3666 is too large"), written.get(1));
        assertTrue(written.get(2) instanceof AgentEvent.AgentEnd, "the next record is still written");

        queue.offer(new AgentEvent.TurnStart()); // and the thread still serves later ones
        await().atMost(BOUND).until(() -> written.size() == 4);
    }

    @Test
    void anyErrorFromTheSinkIsReplacedInEachDialect() {
        AtomicReference<Object> failing = new AtomicReference<>();
        OutputQueue queue = new OutputQueue(record -> {
            if (record == failing.get()) {
                throw new StackOverflowError();
            }
            written.add(record);
        }, e -> { }, 8);
        ObjectNode acpUpdate = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0")
                .put("method", "session/update");
        ObjectNode acpReply = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0").put("id", 7);
        acpReply.set("result", JsonNodeFactory.instance.objectNode());
        List<Object> records = List.of(Response.ok("r1", "get_messages", null),
                JsonRpcReply.result(TextNode.valueOf("j1"), null),
                JsonRpcNotification.event(messageEnd("x")), acpUpdate, acpReply);
        for (Object record : records) {
            failing.set(record);
            queue.offer(record);
            assertTrue(queue.writeNext());
        }
        assertEquals(List.of(
                Response.failure("r1", "get_messages",
                        "could not write a get_messages response record: StackOverflowError"),
                JsonRpcReply.error(TextNode.valueOf("j1"),
                        JsonRpcError.internal("could not write a reply record: StackOverflowError")),
                JsonRpcReply.error(NullNode.getInstance(),
                        JsonRpcError.internal("could not write a message_end record: StackOverflowError")),
                JsonRpcReply.error(NullNode.getInstance(),
                        JsonRpcError.internal("could not write a session/update record: StackOverflowError")),
                JsonRpcReply.error(acpReply.get("id"),
                        JsonRpcError.internal("could not write a reply record: StackOverflowError"))), written);
    }

    @Test
    void anErrorWhileFlushingLosesOnlyThatBatch() {
        boolean[] fail = {true};
        OutputQueue queue = new OutputQueue(new OutputQueue.Sink() {
            @Override
            public void append(Object record) {
                written.add(record);
            }

            @Override
            public void flush() {
                if (fail[0]) {
                    fail[0] = false;
                    throw new Error("flush failed"); // not OutOfMemoryError: JUnit would end the run on one escaping
                }
            }
        }, e -> { }, 8);
        queue.offer(new AgentEvent.TurnStart());
        assertTrue(queue.writeNext(), "the stream goes on");
        queue.offer(new AgentEvent.AgentStart());
        assertTrue(queue.writeNext());
        assertTrue(queue.drain(1, TimeUnit.SECONDS), "nothing is left in flight");
    }

    @Test
    void aProducerWaitingForRoomIsReportedUntilItGetsIt() throws Exception {
        FakeScheduler clock = new FakeScheduler();
        OutputBackpressure gauge = new OutputBackpressure(clock::monotonicMs);
        OutputQueue queue = new OutputQueue(written::add, e -> { }, 1,
                new OutputWaits(gauge::waiting, gauge::resumed));
        queue.offer(new AgentEvent.AgentStart());
        assertFalse(gauge.blocked(), "room was there");
        assertEquals(Long.MIN_VALUE, gauge.lastResumedMs());

        Thread producer = new Thread(() -> queue.offer(new AgentEvent.TurnStart()), "test-producer");
        producer.start();
        await().atMost(BOUND).until(() -> producer.getState() == Thread.State.WAITING);
        assertTrue(gauge.blocked(), "the producer waits for the client");
        clock.advance(5_000);
        assertTrue(queue.writeNext());
        producer.join(BOUND.toMillis());
        assertFalse(producer.isAlive());
        assertFalse(gauge.blocked());
        assertEquals(clock.monotonicMs(), gauge.lastResumedMs(), "when the wait ended, on the monotonic clock");
    }
}
