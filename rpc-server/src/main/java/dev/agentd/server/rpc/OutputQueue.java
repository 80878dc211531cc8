package dev.agentd.server.rpc;

import dev.agentd.protocol.event.AgentEvent;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ordered stream of record <em>objects</em> to stdout, serialized and written by one thread of
 * its own (issue 18): producers (the run thread, the stdin reader, timers) only enqueue, so neither
 * serialization nor a slow reader stalls the run on every delta. Responses and events share this
 * one FIFO, so nothing is reordered; the session-file-before-{@code message_end} rule holds because
 * persisting happens before enqueueing.
 *
 * <p>Adaptive coalescing: a full-mode delta update that finds the queue's last record still
 * pending and mergeable with it ({@link UpdateCoalescing}) is folded into it. A pending record
 * means the writer is behind (serializing, writing into a full pipe, or not yet scheduled), so
 * while it keeps up every delta is its own line, and once it falls behind the deltas that queued
 * meanwhile go out as one. Folding on the producer side yields the same lines as the writer
 * merging the run of updates it finds at the head, but keeps one partial per run in memory instead
 * of one per delta, and is O(1) under the lock. Nothing else is ever merged or dropped.
 *
 * <p>Bounded: at most {@code capacity} records pend. Because updates fold into the tail, a full
 * queue holds non-mergeable records (or updates of alternating blocks); only a producer with such
 * a record waits for room, which is the backpressure the synchronous writer had, {@code capacity}
 * records later. Dropping or reordering them instead would break the contract (SPEC §3.4).
 */
final class OutputQueue {
    private static final Logger LOG = LoggerFactory.getLogger(OutputQueue.class);

    /**
     * Serializes records as lines into a batch and writes the batch; an IOException means stdout
     * is gone, a RuntimeException that one record cannot be serialized (it leaves nothing behind).
     */
    interface Sink {
        void append(Object record) throws IOException;

        default void flush() throws IOException {}
    }

    /** Records serialized into one write at most: a lagging reader gets them in one go. */
    static final int MAX_BATCH = 64;

    /** A pending full-mode delta update, with the deltas of later ones folded into it so far. */
    private static final class Slot {
        private Object record;
        private AgentEvent.MessageUpdate update;
        private StringBuilder deltas;

        Slot(Object record, AgentEvent.MessageUpdate update) {
            this.record = record;
            this.update = update;
        }

        void absorb(Object laterRecord, AgentEvent.MessageUpdate later) {
            if (deltas == null) {
                deltas = new StringBuilder(update.assistantMessageEvent().delta());
            }
            deltas.append(later.assistantMessageEvent().delta());
            record = laterRecord;
            update = later;
        }

        Object toRecord() {
            return deltas == null ? record : UpdateCoalescing.withDelta(record, update, deltas.toString());
        }
    }

    private final Sink sink;
    private final Consumer<IOException> onBroken;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final Condition idle = lock.newCondition();
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private boolean inFlight;
    private boolean closed;
    private long merged;

    OutputQueue(Sink sink, Consumer<IOException> onBroken, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.sink = sink;
        this.onBroken = onBroken;
        this.capacity = capacity;
    }

    /** Starts the writer thread (a daemon thread: {@link #drain} is how shutdown waits for it). */
    OutputQueue start(String threadName) {
        Thread writer = new Thread(this::run, threadName);
        writer.setDaemon(true);
        writer.start();
        return this;
    }

    /** Enqueues {@code record}, folding it into the pending tail when both are updates of one block. */
    void offer(Object record) {
        AgentEvent.MessageUpdate update = UpdateCoalescing.mergeableUpdate(record);
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (update != null && pending.peekLast() instanceof Slot last
                    && UpdateCoalescing.canMerge(last.update, update)) {
                last.absorb(record, update);
                merged++;
                return;
            }
            while (pending.size() >= capacity && !closed) {
                notFull.awaitUninterruptibly();
            }
            if (closed) {
                return;
            }
            pending.addLast(update != null ? new Slot(record, update) : record);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the oldest pending records (up to {@link #MAX_BATCH}, one write), waiting for one;
     * false once stdout is gone. The writer thread loops on this; a test may call it itself.
     */
    boolean writeNext() {
        List<Object> batch = new ArrayList<>();
        lock.lock();
        try {
            while (pending.isEmpty() && !closed) {
                notEmpty.awaitUninterruptibly();
            }
            if (closed) {
                return false;
            }
            while (!pending.isEmpty() && batch.size() < MAX_BATCH) {
                Object item = pending.pollFirst();
                batch.add(item instanceof Slot slot ? slot.toRecord() : item);
            }
            inFlight = true;
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            for (Object record : batch) {
                try {
                    sink.append(record);
                } catch (RuntimeException | StackOverflowError e) { // one bad record must not stop the stream
                    LOG.error("could not serialize a {} record", record.getClass().getSimpleName(), e);
                }
            }
            sink.flush();
        } catch (IOException e) {
            close();
            onBroken.accept(e);
            return false;
        }
        lock.lock();
        try {
            inFlight = false;
            if (pending.isEmpty()) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
        return true;
    }

    /** Waits until everything enqueued so far is written (or stdout broke); false on timeout. */
    boolean drain(long timeout, TimeUnit unit) {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        lock.lock();
        try {
            while ((inFlight || !pending.isEmpty()) && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idle.awaitNanos(left);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Delta updates folded into an earlier one so far. */
    long merged() {
        lock.lock();
        try {
            return merged;
        } finally {
            lock.unlock();
        }
    }

    /** Records waiting for the writer (a merged run counts once). */
    int pending() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (writeNext()) {
            // every record in order, until stdout is gone
        }
    }

    /** Stdout is gone: drop what is pending and release every waiting producer and drainer. */
    private void close() {
        lock.lock();
        try {
            closed = true;
            inFlight = false;
            pending.clear();
            notFull.signalAll();
            notEmpty.signalAll();
            idle.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
