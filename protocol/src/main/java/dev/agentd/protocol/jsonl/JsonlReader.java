package dev.agentd.protocol.jsonl;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Strict JSONL framing over a byte stream (SPEC §3.1).
 *
 * <ul>
 *   <li>records end at LF only; one trailing CR is stripped (CRLF tolerated);</li>
 *   <li>splitting happens on bytes, so a UTF-8 sequence split across reads is reassembled and
 *       U+2028/U+2029/U+0085 inside strings are never line breaks;</li>
 *   <li>blank (whitespace-only) lines are skipped;</li>
 *   <li>a line longer than the limit is reported as {@link Line.TooLong} and skipped without being
 *       buffered whole: once over the limit its bytes are counted, not kept;</li>
 *   <li>an unterminated non-blank tail at end of stream is delivered as a last record.</li>
 * </ul>
 * Not thread-safe: one reader thread owns it.
 */
public final class JsonlReader implements Closeable {
    /** SPEC §3.1: 64 MiB. */
    public static final int DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
    private static final int READ_CHUNK = 64 * 1024;
    private static final int KEEP_CAPACITY = 1024 * 1024;

    /** One framed line. */
    public sealed interface Line {
        /** A record's bytes (UTF-8, without the line terminator). */
        record Text(byte[] bytes) implements Line {}

        /** A line over the limit, skipped; {@code length} is its size in bytes. */
        record TooLong(long length) implements Line {}
    }

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] chunk = new byte[READ_CHUNK];
    private int pos;
    private int limit;
    private byte[] line = new byte[8 * 1024];
    private int lineLength;
    private boolean discarding;
    private long discardedLength;

    public JsonlReader(InputStream in) {
        this(in, DEFAULT_MAX_LINE_BYTES);
    }

    public JsonlReader(InputStream in, int maxLineBytes) {
        if (maxLineBytes <= 0) {
            throw new IllegalArgumentException("maxLineBytes must be positive");
        }
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /** The next non-blank line, or null at end of stream. Blocks while no full line is available. */
    public Line next() throws IOException {
        while (true) {
            if (pos == limit && !fill()) {
                // End of stream: an unterminated, non-blank tail is still a record.
                return lineLength == 0 && !discarding ? null : finishLine();
            }
            int newline = indexOfLf(chunk, pos, limit);
            int end = newline < 0 ? limit : newline;
            accept(chunk, pos, end - pos);
            pos = newline < 0 ? limit : newline + 1;
            if (newline >= 0) {
                Line done = finishLine();
                if (done != null) {
                    return done;
                }
            }
        }
    }

    private boolean fill() throws IOException {
        int n = in.read(chunk, 0, chunk.length);
        if (n < 0) {
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    private void accept(byte[] src, int from, int count) {
        if (count == 0) {
            return;
        }
        if (discarding) {
            discardedLength += count;
            return;
        }
        if ((long) lineLength + count > maxLineBytes) {
            discarding = true;
            discardedLength = (long) lineLength + count;
            lineLength = 0;
            releaseLargeBuffer();
            return;
        }
        if (lineLength + count > line.length) {
            int capacity = (int) Math.min(Math.max((long) line.length * 2, (long) lineLength + count), maxLineBytes);
            line = Arrays.copyOf(line, capacity);
        }
        System.arraycopy(src, from, line, lineLength, count);
        lineLength += count;
    }

    /** Completes the current line; null when it was blank (or nothing was pending). */
    private Line finishLine() {
        if (discarding) {
            long length = discardedLength;
            discarding = false;
            discardedLength = 0;
            return new Line.TooLong(length);
        }
        int length = lineLength;
        lineLength = 0;
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        if (isBlank(line, length)) {
            return null;
        }
        byte[] bytes = Arrays.copyOf(line, length);
        releaseLargeBuffer();
        return new Line.Text(bytes);
    }

    private void releaseLargeBuffer() {
        if (line.length > KEEP_CAPACITY) {
            line = new byte[8 * 1024];
        }
    }

    private static boolean isBlank(byte[] bytes, int length) {
        for (int i = 0; i < length; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static int indexOfLf(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
