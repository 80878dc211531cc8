package dev.agentd.protocol.jsonl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.protocol.json.JsonTrees;
import dev.agentd.protocol.json.WireTrees;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Supplier;

/**
 * Writes one JSON record per line (SPEC §3.1): each record is serialized completely into a reused
 * buffer first, then written with a single {@code write} and flushed, under a lock, so records from
 * different threads never interleave and a record that fails to serialize writes nothing.
 *
 * <p>A writer with several records at hand {@link #append}s them and {@link #flush}es once: one
 * {@code write} for all their lines, which is what a reader that fell behind needs.
 *
 * <p>Trees and the records {@link WireTrees} knows ({@code ready}, responses) are written with
 * jackson-core alone; the mapper is asked for only when another record comes, so a daemon's first
 * exchange never waits for it to be built (start-up, issue 18).
 */
public final class JsonlWriter {
    private static final int KEEP_CAPACITY = 1024 * 1024;

    private final OutputStream out;
    private final Supplier<ObjectMapper> mapper;
    private Buffer buffer = new Buffer();

    public JsonlWriter(OutputStream out, ObjectMapper mapper) {
        this(out, () -> mapper);
    }

    /** {@code mapper} is called on the first record that needs it, not before. */
    public JsonlWriter(OutputStream out, Supplier<ObjectMapper> mapper) {
        this.out = out;
        this.mapper = mapper;
    }

    /** Serializes {@code record} and writes it as one line. */
    public synchronized void write(Object record) throws IOException {
        append(record);
        flush();
    }

    /**
     * Serializes {@code record} as one line after those already appended, to be written by the next
     * {@link #flush}. A record that fails to serialize leaves nothing behind (the exception says why).
     */
    public synchronized void append(Object record) throws IOException {
        int start = buffer.size();
        try {
            JsonNode tree = WireTrees.of(record);
            if (tree != null) {
                JsonTrees.write(buffer, tree);
            } else {
                mapper.get().writeValue(buffer, record);
            }
            buffer.write('\n');
        } catch (Throwable e) { // an Error too (OutOfMemoryError on a huge record): no half line may stay
            buffer.truncate(start);
            throw e;
        }
    }

    /** Writes every appended line with one {@code write}, and flushes. */
    public synchronized void flush() throws IOException {
        try {
            if (buffer.size() > 0) {
                out.write(buffer.array(), 0, buffer.size());
                out.flush();
            }
        } finally {
            if (buffer.capacity() > KEEP_CAPACITY) {
                buffer = new Buffer();
            } else {
                buffer.reset();
            }
        }
    }

    private static final class Buffer extends ByteArrayOutputStream {
        Buffer() {
            super(8 * 1024);
        }

        byte[] array() {
            return buf;
        }

        int capacity() {
            return buf.length;
        }

        void truncate(int size) {
            count = size;
        }
    }
}
