package dev.agentd.server.ai.sse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental SSE parser following the WHATWG event-stream rules: lines end at {@code \n},
 * {@code \r\n} or {@code \r} (also when the pair is split across reads); {@code event:},
 * {@code data:} (several lines joined with {@code \n}) and {@code id:} fields; a single space
 * after the colon is dropped; {@code :} lines are comments; a blank line dispatches. Unlike the
 * browser algorithm, an event still pending at end of stream is dispatched, since some servers
 * omit the final blank line. Reads in small chunks and never buffers more than one line.
 */
public final class SseParser {
    /** A single line longer than this is not a sane provider event; fail instead of growing forever. */
    public static final int DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
    private static final int CHUNK = 8192;

    /** Receives what the parser finds, in stream order, on the reading thread. */
    public interface Handler {
        /** One event; return false to stop reading (a terminal event, or a failure). */
        boolean onEvent(SseEvent event);

        /** A comment line (keep-alives such as {@code : OPENROUTER PROCESSING}); ignored by default. */
        default void onComment(String comment) {}
    }

    private final Handler handler;
    private final int maxLineBytes;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean afterCarriageReturn;
    private boolean firstLine = true;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String eventType;
    private String lastEventId;

    public SseParser(Handler handler) {
        this(handler, DEFAULT_MAX_LINE_BYTES);
    }

    public SseParser(Handler handler, int maxLineBytes) {
        this.handler = handler;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * Reads {@code in} until end of stream or until the handler returns false.
     *
     * @return true if the stream ended, false if the handler stopped reading
     * @throws IOException from the stream, or when a line exceeds the size limit
     */
    public boolean parse(InputStream in) throws IOException {
        byte[] buffer = new byte[CHUNK];
        int read;
        while ((read = in.read(buffer)) != -1) {
            if (!feed(buffer, 0, read)) {
                return false;
            }
        }
        return finish();
    }

    /** Feeds raw bytes; returns false once the handler asked to stop. */
    public boolean feed(byte[] bytes, int offset, int length) throws IOException {
        for (int i = offset; i < offset + length; i++) {
            byte b = bytes[i];
            if (b == '\n' && afterCarriageReturn) {
                afterCarriageReturn = false;
                continue;
            }
            afterCarriageReturn = b == '\r';
            if (b == '\n' || b == '\r') {
                if (!endLine()) {
                    return false;
                }
            } else {
                append(b);
            }
        }
        return true;
    }

    /** End of stream: a last unterminated line counts, and a pending event is dispatched. */
    public boolean finish() {
        if (lineLength > 0 && !endLine()) {
            return false;
        }
        return dispatch();
    }

    private void append(byte b) throws IOException {
        if (lineLength >= maxLineBytes) {
            throw new IOException("SSE line longer than " + maxLineBytes + " bytes");
        }
        if (lineLength == line.length) {
            line = Arrays.copyOf(line, Math.min(maxLineBytes, line.length * 2));
        }
        line[lineLength++] = b;
    }

    private boolean endLine() {
        String text = new String(line, 0, lineLength, StandardCharsets.UTF_8);
        lineLength = 0;
        if (firstLine) {
            firstLine = false;
            if (text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
        }
        if (text.isEmpty()) {
            return dispatch();
        }
        if (text.charAt(0) == ':') {
            handler.onComment(text.substring(1).stripLeading());
            return true;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "event" -> eventType = value;
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    lastEventId = value;
                }
            }
            default -> { } // "retry" and unknown fields do not concern a one-shot stream
        }
        return true;
    }

    private boolean dispatch() {
        if (!hasData) {
            // WHATWG: an event without data is dropped, and so is its type.
            eventType = null;
            return true;
        }
        SseEvent event = new SseEvent(eventType == null || eventType.isEmpty() ? "message" : eventType,
                data.toString(), lastEventId);
        data.setLength(0);
        hasData = false;
        eventType = null;
        return handler.onEvent(event);
    }
}
