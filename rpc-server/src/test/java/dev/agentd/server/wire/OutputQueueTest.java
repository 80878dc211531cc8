package dev.agentd.server.wire;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.response.Response;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Adaptive coalescing (issue 18) on the queue alone: the sink stands for serialization + pipe +
 * reader. Most cases drive the writer by hand ({@link OutputQueue#writeNext}) so that "the writer
 * is behind" is a fact of the test, not of timing; the threaded ones block the sink on a semaphore.
 */
class OutputQueueTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final List<Object> written = Collections.synchronizedList(new ArrayList<>());

    private OutputQueue queue(int capacity) {
        return new OutputQueue(written::add, e -> { }, capacity);
    }

    /** A streaming text reply: {@code text} so far in block {@code index} (earlier blocks get "b<i>"). */
    private static AgentMessage.Assistant partial(int index, String text) {
        List<ContentBlock> content = new ArrayList<>();
        for (int i = 0; i < index; i++) {
            content.add(new ContentBlock.Text("b" + i, null));
        }
        content.add(new ContentBlock.Text(text, null));
        return new AgentMessage.Assistant(content, "api", "p", "m", Usage.ZERO, StopReason.STOP, null, 1L);
    }

    private static AgentEvent.MessageUpdate update(String type, int index, String delta, String textSoFar) {
        AgentMessage.Assistant partial = partial(index, textSoFar);
        return new AgentEvent.MessageUpdate(partial, new AssistantMessageEvent(type, index, delta, null, null, partial));
    }

    /** {@code n} text deltas "d0", "d1", … of block {@code index}, each with its partial. */
    private static List<AgentEvent.MessageUpdate> deltas(int index, int n) {
        List<AgentEvent.MessageUpdate> updates = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < n; i++) {
            text.append('d').append(i);
            updates.add(update("text_delta", index, "d" + i, text.toString()));
        }
        return updates;
    }

    private static AgentEvent.MessageUpdate delivered(Object record) {
        return (AgentEvent.MessageUpdate) (record instanceof JsonRpcNotification n ? n.params() : record);
    }

    private static String joinedDeltas(List<?> records) {
        StringBuilder all = new StringBuilder();
        for (Object record : records) {
            if (record instanceof AgentEvent.MessageUpdate || record instanceof JsonRpcNotification) {
                all.append(delivered(record).assistantMessageEvent().delta());
            }
        }
        return all.toString();
    }

    private void writeAll(OutputQueue queue) {
        while (queue.pending() > 0) {
            assertTrue(queue.writeNext());
        }
    }

    @Test
    void updatesPendingBehindTheWriterMergeIntoOneWithTheLatestPartial() {
        OutputQueue queue = queue(16);
        AgentEvent start = new AgentEvent.MessageStart(partial(0, ""));
        List<AgentEvent.MessageUpdate> updates = deltas(0, 50);
        AgentEvent end = new AgentEvent.MessageEnd(updates.get(49).message());
        queue.offer(start);
        updates.forEach(queue::offer);
        queue.offer(end);
        writeAll(queue);

        assertEquals(3, written.size(), written.toString());
        assertSame(start, written.get(0));
        assertSame(end, written.get(2));
        AgentEvent.MessageUpdate merged = delivered(written.get(1));
        assertEquals(joinedDeltas(updates), merged.assistantMessageEvent().delta(), "the deltas concatenated");
        assertSame(updates.get(49).message(), merged.message(), "the latest partial");
        assertSame(merged.message(), merged.assistantMessageEvent().partial(), "one partial, serialized once");
        assertEquals(49, queue.merged());
    }

    @Test
    void nothingMergesAcrossBlocksKindsMessagesOrOtherEvents() {
        OutputQueue queue = queue(64);
        List<Object> offered = new ArrayList<>();
        offered.add(update("text_delta", 0, "a", "a"));
        offered.add(update("text_delta", 1, "b", "b")); // another block
        offered.add(update("thinking_delta", 1, "c", "c")); // another kind, same block index
        offered.add(update("text_end", 1, null, "b")); // not a delta
        offered.add(new AgentEvent.MessageEnd(partial(1, "b")));
        offered.add(new AgentEvent.MessageStart(partial(0, "")));
        offered.add(update("text_delta", 0, "d", "d")); // the next message's first delta
        AgentMessage.Assistant noPartial = null;
        offered.add(new AgentEvent.MessageUpdate(noPartial,
                new AssistantMessageEvent("text_delta", 0, "e", null, null, null))); // delta mode
        offered.add(new AgentEvent.MessageUpdate(noPartial,
                new AssistantMessageEvent("text_delta", 0, "f", null, null, null)));
        offered.forEach(queue::offer);
        writeAll(queue);

        assertEquals(offered, written, "every record as offered, none merged");
        assertEquals(0, queue.merged());
    }

    @Test
    void aReaderThatKeepsUpGetsOneUpdatePerDelta() {
        OutputQueue queue = queue(16).start("test-stdout");
        List<AgentEvent.MessageUpdate> updates = deltas(0, 200);
        for (int i = 0; i < updates.size(); i++) {
            queue.offer(updates.get(i));
            int seen = i + 1;
            await().until(() -> written.size() == seen); // paced: the next delta comes once this one is out
        }
        assertEquals(updates, written);
        assertEquals(0, queue.merged());
    }

    @Test
    void aSlowReaderGetsTheSameFinalStateAndEveryOtherEventInOrder() {
        Semaphore reader = new Semaphore(0);
        AtomicInteger entered = new AtomicInteger();
        OutputQueue queue = new OutputQueue(record -> {
            entered.incrementAndGet();
            reader.acquireUninterruptibly(); // the writer sits in a write the reader does not take
            written.add(record);
        }, e -> { }, 8).start("test-stdout");
        List<Object> offered = new ArrayList<>();
        offered.add(new AgentEvent.AgentStart());
        offered.add(new AgentEvent.MessageStart(partial(0, "")));
        offered.addAll(deltas(0, 300));
        offered.add(update("text_end", 0, null, "x"));
        offered.addAll(deltas(1, 300));
        offered.add(new AgentEvent.QueueUpdate(List.of("steer"), List.of()));
        offered.addAll(deltas(1, 300));
        offered.add(new AgentEvent.MessageEnd(partial(1, "x")));
        offered.add(new AgentEvent.AgentEnd(List.of(), false));

        queue.offer(offered.get(0));
        await().until(() -> entered.get() == 1); // agent_start is in flight and stuck
        assertTimeoutPreemptively(BOUND, () -> offered.subList(1, offered.size()).forEach(queue::offer),
                "the producer never waits for the slow reader: 900 updates fold into three records");
        reader.release(Integer.MAX_VALUE / 2);
        assertTrue(queue.drain(BOUND.toSeconds(), TimeUnit.SECONDS));

        List<Object> others = offered.stream().filter(r -> UpdateCoalescing.mergeableUpdate(r) == null).toList();
        assertEquals(others, written.stream().filter(r -> UpdateCoalescing.mergeableUpdate(r) == null).toList(),
                "every other record, in order, none dropped");
        assertEquals(joinedDeltas(offered), joinedDeltas(written), "a client appending deltas ends the same");
        assertEquals(lastUpdate(offered).message(), lastUpdate(written).message(),
                "a client replacing its display on each update ends the same");
        assertEquals(others.size() + 3, written.size(), written.size() + " records");
    }

    private static AgentEvent.MessageUpdate lastUpdate(List<Object> records) {
        AgentEvent.MessageUpdate last = null;
        for (Object record : records) {
            if (UpdateCoalescing.mergeableUpdate(record) != null) {
                last = delivered(record);
            }
        }
        return last;
    }

    @Test
    void aFullQueueFoldsUpdatesAtOnceAndHoldsOnlyAnUnmergeableRecord() throws Exception {
        OutputQueue queue = queue(2); // no writer thread: the test writes
        List<AgentEvent.MessageUpdate> updates = deltas(0, 3);
        queue.offer(new AgentEvent.AgentStart());
        queue.offer(updates.get(0));
        assertTimeoutPreemptively(BOUND, () -> queue.offer(updates.get(1)), "folded into the tail of a full queue");
        AgentEvent end = new AgentEvent.AgentEnd(List.of(), false);
        Thread producer = new Thread(() -> queue.offer(end), "test-producer");
        producer.start();
        await().until(() -> producer.getState() == Thread.State.WAITING);
        assertEquals(2, queue.pending(), "agent_end waits for room: it is never dropped");
        assertTrue(queue.writeNext());
        producer.join(BOUND.toMillis());
        assertFalse(producer.isAlive());
        writeAll(queue);

        assertEquals(3, written.size(), written.toString());
        assertEquals("d0d1", delivered(written.get(1)).assistantMessageEvent().delta());
        assertSame(end, written.get(2));
    }

    @Test
    void recordsPendingBehindTheWriterGoOutInOneWrite() {
        AtomicInteger flushes = new AtomicInteger();
        OutputQueue queue = new OutputQueue(new OutputQueue.Sink() {
            @Override
            public void append(Object record) {
                written.add(record);
            }

            @Override
            public void flush() {
                flushes.incrementAndGet();
            }
        }, e -> { }, 2 * OutputQueue.MAX_BATCH);
        List<AgentEvent> offered = new ArrayList<>();
        for (int i = 0; i < OutputQueue.MAX_BATCH + 1; i++) {
            offered.add(new AgentEvent.QueueUpdate(List.of("s" + i), List.of()));
        }
        offered.forEach(queue::offer);
        assertTrue(queue.writeNext());
        assertEquals(1, flushes.get());
        assertEquals(OutputQueue.MAX_BATCH, written.size(), "one batch at most");
        assertTrue(queue.writeNext());
        assertEquals(2, flushes.get());
        assertEquals(offered, written);
    }

    @Test
    void jsonRpcNotificationsMergeAndStayNotifications() {
        OutputQueue queue = queue(16);
        deltas(2, 5).forEach(update -> queue.offer(JsonRpcNotification.event(update)));
        writeAll(queue);
        assertEquals(1, written.size());
        JsonRpcNotification notification = (JsonRpcNotification) written.get(0);
        assertEquals(JsonRpcNotification.EVENT, notification.method());
        assertEquals("d0d1d2d3d4", delivered(notification).assistantMessageEvent().delta());
    }

    @Test
    void aBrokenStdoutIsReportedOnceAndReleasesProducersAndDrain() throws Exception {
        AtomicInteger broken = new AtomicInteger();
        OutputQueue queue = new OutputQueue(record -> {
            throw new IOException("Broken pipe");
        }, e -> broken.incrementAndGet(), 1);
        queue.offer(new AgentEvent.AgentStart());
        Thread producer = new Thread(() -> queue.offer(new AgentEvent.TurnStart()), "test-producer");
        producer.start();
        await().until(() -> producer.getState() == Thread.State.WAITING);
        assertFalse(queue.writeNext(), "the writer stops");
        producer.join(BOUND.toMillis());
        assertFalse(producer.isAlive(), "a producer waiting for room is released");
        queue.offer(new AgentEvent.TurnStart()); // dropped: nobody reads any more
        assertEquals(0, queue.pending());
        assertTrue(queue.drain(1, TimeUnit.SECONDS));
        assertEquals(1, broken.get());
    }

    @Test
    void aRecordThatFailsToSerializeIsReplacedAndTheStreamGoesOn() {
        OutputQueue queue = new OutputQueue(record -> {
            if (record instanceof AgentEvent.TurnStart) {
                throw new IllegalStateException("cannot serialize");
            }
            written.add(record);
        }, e -> { }, 4);
        queue.offer(new AgentEvent.TurnStart());
        queue.offer(new AgentEvent.AgentStart());
        writeAll(queue);
        assertEquals(2, written.size());
        assertEquals(Response.failure(null, "write",
                "could not write a turn_start record: IllegalStateException: cannot serialize"), written.get(0));
        assertTrue(written.get(1) instanceof AgentEvent.AgentStart);
    }
}
