package dev.agentd.server.rpc;

import dev.agentd.protocol.jsonl.JsonlWriter;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's only way to stdout: one record per line through one {@link JsonlWriter}. When the
 * client goes away (broken pipe) the failure is reported once and {@code onClosed} runs, which
 * shuts the daemon down as on stdin EOF.
 */
public final class RpcOutput {
    private static final Logger LOG = LoggerFactory.getLogger(RpcOutput.class);

    private final JsonlWriter writer;
    private final Runnable onClosed;
    private final AtomicBoolean closed = new AtomicBoolean();

    public RpcOutput(JsonlWriter writer, Runnable onClosed) {
        this.writer = writer;
        this.onClosed = onClosed;
    }

    public void write(Object record) {
        if (closed.get()) {
            return;
        }
        try {
            writer.write(record);
        } catch (IOException e) {
            if (closed.compareAndSet(false, true)) {
                LOG.warn("stdout is closed ({}); shutting down", e.getMessage());
                onClosed.run();
            }
        } catch (RuntimeException e) {
            LOG.error("could not serialize a {} record", record.getClass().getSimpleName(), e);
        }
    }
}
