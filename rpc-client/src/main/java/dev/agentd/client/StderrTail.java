package dev.agentd.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The last {@code capacity} bytes of the daemon's stderr: enough for a stack trace, never unbounded. */
final class StderrTail {
    static final int DEFAULT_CAPACITY = 64 * 1024;

    private final byte[] ring;
    private long written;

    StderrTail(int capacity) {
        this.ring = new byte[capacity];
    }

    synchronized void append(byte[] bytes, int offset, int length) {
        for (int i = 0; i < length; i++) {
            ring[(int) (written++ % ring.length)] = bytes[offset + i];
        }
    }

    /** The kept bytes as text (a multi-byte character cut at the start becomes U+FFFD). */
    synchronized String text() {
        int size = (int) Math.min(written, ring.length);
        byte[] out = new byte[size];
        int start = (int) ((written - size) % ring.length);
        for (int i = 0; i < size; i++) {
            out[i] = ring[(start + i) % ring.length];
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    /** Copies {@code in} into the tail until end of stream (or an I/O error, e.g. the pipe closed). */
    void drain(InputStream in) {
        byte[] buffer = new byte[8 * 1024];
        try (in) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                append(buffer, 0, n);
            }
        } catch (IOException e) {
            // The stream is gone; what was captured stays available.
        }
    }
}
