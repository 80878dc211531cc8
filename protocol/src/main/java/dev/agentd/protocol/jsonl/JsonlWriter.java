package dev.agentd.protocol.jsonl;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes one JSON record per line (SPEC §3.1): each record is serialized completely into a reused
 * buffer first, then written with a single {@code write} and flushed, under a lock, so records from
 * different threads never interleave and a record that fails to serialize writes nothing.
 */
public final class JsonlWriter {
    private static final int KEEP_CAPACITY = 1024 * 1024;

    private final OutputStream out;
    private final ObjectMapper mapper;
    private Buffer buffer = new Buffer();

    public JsonlWriter(OutputStream out, ObjectMapper mapper) {
        this.out = out;
        this.mapper = mapper;
    }

    /** Serializes {@code record} and writes it as one line. */
    public synchronized void write(Object record) throws IOException {
        try {
            mapper.writeValue(buffer, record);
            buffer.write('\n');
            out.write(buffer.array(), 0, buffer.size());
            out.flush();
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
    }
}
