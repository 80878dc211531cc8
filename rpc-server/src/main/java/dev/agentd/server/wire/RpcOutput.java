package dev.agentd.server.wire;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.protocol.jsonl.JsonlWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's only way to stdout: one record per line through one {@link JsonlWriter}. When the
 * client goes away (broken pipe) the failure is reported once and {@code onClosed} runs, which
 * shuts the daemon down as on stdin EOF.
 *
 * <p>The daemon uses {@link #queued}: records go through an {@link OutputQueue} whose writer thread
 * serializes them, coalescing full-mode delta updates while it is behind (issue 18). The
 * constructor writes synchronously on the caller's thread (tests of the dialects read stdout
 * right after a call).
 */
public final class RpcOutput {
    private static final Logger LOG = LoggerFactory.getLogger(RpcOutput.class);
    /** Pending records before a non-mergeable one waits for room; updates of a lagging reply fold instead. */
    public static final int DEFAULT_CAPACITY = 1024;

    private final JsonlWriter writer;
    private final OutputQueue queue;
    private final Runnable onClosed;
    private final AtomicBoolean closed = new AtomicBoolean();

    public RpcOutput(JsonlWriter writer, Runnable onClosed) {
        this.writer = writer;
        this.queue = null;
        this.onClosed = onClosed;
    }

    private RpcOutput(OutputStream out, Supplier<ObjectMapper> mapper, int capacity, Runnable onClosed,
            OutputWaits waits) {
        this.onClosed = onClosed;
        this.writer = null;
        JsonlWriter lines = new JsonlWriter(out, mapper);
        this.queue = new OutputQueue(new OutputQueue.Sink() {
            @Override
            public void append(Object record) throws IOException {
                lines.append(record);
            }

            @Override
            public void flush() throws IOException {
                lines.flush();
            }
        }, this::broken, capacity, waits).start("agentd-stdout");
    }

    /**
     * Serializes and writes on a thread of its own, in order, coalescing delta updates while behind;
     * {@code mapper} is first asked for by a record that needs it (see {@link JsonlWriter}), and
     * {@code waits} hears of every producer's wait for room (the client not reading).
     */
    public static RpcOutput queued(OutputStream out, Supplier<ObjectMapper> mapper, int capacity,
            Runnable onClosed, OutputWaits waits) {
        return new RpcOutput(out, mapper, capacity, onClosed, waits);
    }

    public void write(Object record) {
        if (closed.get()) {
            return;
        }
        if (queue != null) {
            queue.offer(record);
            return;
        }
        try {
            writer.write(record);
        } catch (IOException e) {
            broken(e);
        } catch (Throwable e) { // as the queue's writer does: an error record in its place
            LOG.error("{}; an error record takes its place", WriteFailures.message(record, e));
            try {
                writer.write(WriteFailures.replacement(record, e));
            } catch (IOException broken) {
                broken(broken);
            }
        }
    }

    /** Waits until every record written so far is on stdout; false if that took longer than {@code timeoutMs}. */
    public boolean drain(long timeoutMs) {
        return queue == null || queue.drain(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private void broken(IOException e) {
        if (closed.compareAndSet(false, true)) {
            LOG.warn("stdout is closed ({}); shutting down", e.getMessage());
            onClosed.run();
        }
    }
}
