package dev.agentd.server.wire;

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
     * is gone, anything else thrown by {@code append} that one record cannot be serialized (it
     * leaves nothing behind).
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
    private final OutputWaits waits;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final Condition idle = lock.newCondition();
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private boolean inFlight;
    private boolean closed;
    private long merged;

    OutputQueue(Sink sink, Consumer<IOException> onBroken, int capacity) {
        this(sink, onBroken, capacity, OutputWaits.NONE);
    }

    /** @param waits told when a producer starts and stops waiting for room (the stream watchdogs pause meanwhile) */
    OutputQueue(Sink sink, Consumer<IOException> onBroken, int capacity, OutputWaits waits) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.sink = sink;
        this.onBroken = onBroken;
        this.capacity = capacity;
        this.waits = waits;
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
            if (pending.size() >= capacity && !closed) {
                awaitRoom();
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

    /** Waits (holding the lock) until there is room or stdout is gone, reporting the wait. */
    private void awaitRoom() {
        waits.waiting().run();
        try {
            while (pending.size() >= capacity && !closed) {
                notFull.awaitUninterruptibly();
            }
        } finally {
            waits.resumed().run();
        }
    }

    /**
     * Writes the oldest pending records (up to {@link #MAX_BATCH}, one write), waiting for one;
     * false once stdout is gone. The writer thread loops on this; a test may call it itself. A
     * record that fails to serialize, for whatever reason ({@code OutOfMemoryError} included), is
     * replaced by an error record ({@link WriteFailures}); only an IOException ends the stream.
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
                batch.add(pending.pollFirst()); // a slot left the queue: nothing folds into it any more
            }
            inFlight = true;
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            for (Object item : batch) {
                append(item);
            }
            sink.flush();
        } catch (IOException e) {
            close();
            onBroken.accept(e);
            return false;
        } catch (Throwable e) { // not stdout gone (that is an IOException): this batch is lost, the stream goes on
            LOG.error("could not write {} records: {}", batch.size(), e.toString());
        } finally {
            batch.clear();
            settled();
        }
        return true;
    }

    /** Serializes one queued item, or in its place the error record that says why it could not be. */
    private void append(Object item) throws IOException {
        try {
            sink.append(item instanceof Slot slot ? slot.toRecord() : item);
        } catch (IOException e) {
            throw e;
        } catch (Throwable e) { // one bad record must not stop the stream, however it failed
            Object failed = item instanceof Slot slot ? slot.record : item;
            try {
                sink.append(WriteFailures.replacement(failed, e)); // first: logging may need memory too
            } catch (IOException broken) {
                throw broken;
            } catch (Throwable again) {
                logQuietly("could not write the error record either: " + again);
            }
            logQuietly(WriteFailures.message(failed, e) + "; an error record took its place");
        }
    }

    /** Logs without a stack trace, and never throws: under memory pressure the log may fail too. */
    private static void logQuietly(String text) {
        try {
            LOG.error("{}", text);
        } catch (Throwable ignored) {
            // nothing left to tell it with
        }
    }

    /** The writer is done with its batch (written or not). */
    private void settled() {
        lock.lock();
        try {
            inFlight = false;
            if (pending.isEmpty()) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
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

    /** Every record in order until stdout is gone; nothing else ends this thread. */
    private void run() {
        while (true) {
            try {
                if (!writeNext()) {
                    return;
                }
            } catch (Throwable e) { // writeNext handles records itself; this is the last line of defence
                LOG.error("the stdout writer failed; going on: {}", e.toString());
            }
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
