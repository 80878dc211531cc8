package dev.agentd.server.state.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one RESP2 reply with hard bounds, so a hostile or broken server cannot make agentd
 * allocate without limit or recurse deeply: a line (simple string, error, integer, length) is at
 * most {@link #MAX_LINE} bytes, a bulk string at most {@link #MAX_BULK}, an array at most
 * {@link #MAX_ARRAY} items nested at most {@link #MAX_DEPTH} deep, and one whole reply at most
 * {@link #MAX_REPLY} bytes. Lists grow as items arrive, never from a declared length. The time
 * bound is the stream's (see {@link RespConnection}).
 */
final class RespReader {
    static final int MAX_LINE = 8 * 1024;
    static final int MAX_BULK = 1024 * 1024;
    static final int MAX_ARRAY = 100_000;
    static final int MAX_DEPTH = 4;
    static final int MAX_REPLY = 8 * 1024 * 1024;

    private final InputStream in;
    private long budget;

    RespReader(InputStream in) {
        this.in = in;
    }

    /** Reads exactly one reply. */
    Reply read() throws IOException {
        budget = MAX_REPLY;
        return read(0);
    }

    private Reply read(int depth) throws IOException {
        int type = next();
        String line = line();
        switch (type) {
            case '+':
                return new Reply.Simple(line);
            case '-':
                return new Reply.Error(line);
            case ':':
                return new Reply.Int(number(line));
            case '$': {
                long length = number(line);
                if (length < 0) {
                    return new Reply.Nil();
                }
                if (length > MAX_BULK) {
                    throw new RespProtocolException("bulk string of " + length + " bytes exceeds " + MAX_BULK);
                }
                spend(length + 2);
                byte[] data = in.readNBytes((int) length);
                if (data.length < length || next() != '\r' || next() != '\n') {
                    throw new RespProtocolException("bulk string not terminated");
                }
                return new Reply.Bulk(new String(data, StandardCharsets.UTF_8));
            }
            case '*': {
                long count = number(line);
                if (count < 0) {
                    return new Reply.Nil();
                }
                if (count > MAX_ARRAY) {
                    throw new RespProtocolException("array of " + count + " items exceeds " + MAX_ARRAY);
                }
                if (depth + 1 > MAX_DEPTH) {
                    throw new RespProtocolException("arrays nested deeper than " + MAX_DEPTH);
                }
                List<Reply> items = new ArrayList<>((int) Math.min(count, 16));
                for (long i = 0; i < count; i++) {
                    items.add(read(depth + 1));
                }
                return new Reply.Array(List.copyOf(items));
            }
            default:
                throw new RespProtocolException("unknown reply type byte " + type);
        }
    }

    private int next() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new RespProtocolException("connection closed mid-reply");
        }
        spend(1);
        return b;
    }

    /** The rest of a line up to CRLF, bounded. */
    private String line() throws IOException {
        StringBuilder text = new StringBuilder();
        while (true) {
            int b = next();
            if (b == '\r') {
                if (next() != '\n') {
                    throw new RespProtocolException("CR without LF");
                }
                return text.toString();
            }
            if (text.length() >= MAX_LINE) {
                throw new RespProtocolException("line longer than " + MAX_LINE + " bytes");
            }
            text.append((char) b); // lines are ASCII in RESP2; anything else stays harmless text
        }
    }

    private static long number(String line) throws RespProtocolException {
        if (line.isEmpty() || line.length() > 19) {
            throw new RespProtocolException("bad number");
        }
        try {
            return Long.parseLong(line);
        } catch (NumberFormatException e) {
            throw new RespProtocolException("bad number");
        }
    }

    private void spend(long bytes) throws RespProtocolException {
        budget -= bytes;
        if (budget < 0) {
            throw new RespProtocolException("reply larger than " + MAX_REPLY + " bytes");
        }
    }
}
