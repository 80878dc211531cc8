package dev.agentd.protocol.event;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A JSON value already serialized to UTF-8, written with
 * {@link com.fasterxml.jackson.core.JsonGenerator#writeRawValue(SerializableString)}: a UTF-8
 * generator copies the bytes as they are, where a {@code String} raw value would be encoded from
 * chars again at every write. The "quoted" forms (the value as the content of a JSON string) are
 * only there to complete the interface.
 */
final class RawJson implements SerializableString {
    private final byte[] utf8;
    private String text;

    RawJson(byte[] utf8) {
        this.utf8 = utf8;
    }

    @Override
    public String getValue() {
        if (text == null) {
            text = new String(utf8, StandardCharsets.UTF_8);
        }
        return text;
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public char[] asQuotedChars() {
        return JsonStringEncoder.getInstance().quoteAsString(getValue());
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return utf8;
    }

    @Override
    public byte[] asQuotedUTF8() {
        return JsonStringEncoder.getInstance().quoteAsUTF8(getValue());
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        return append(asQuotedUTF8(), buffer, offset);
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        char[] quoted = asQuotedChars();
        if (offset + quoted.length > buffer.length) {
            return -1;
        }
        System.arraycopy(quoted, 0, buffer, offset, quoted.length);
        return quoted.length;
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        return append(utf8, buffer, offset);
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        String value = getValue();
        if (offset + value.length() > buffer.length) {
            return -1;
        }
        value.getChars(0, value.length(), buffer, offset);
        return value.length();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
        byte[] quoted = asQuotedUTF8();
        out.write(quoted);
        return quoted.length;
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(utf8);
        return utf8.length;
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
        return put(asQuotedUTF8(), buffer);
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        return put(utf8, buffer);
    }

    @Override
    public String toString() {
        return getValue();
    }

    private static int append(byte[] bytes, byte[] buffer, int offset) {
        if (offset + bytes.length > buffer.length) {
            return -1;
        }
        System.arraycopy(bytes, 0, buffer, offset, bytes.length);
        return bytes.length;
    }

    private static int put(byte[] bytes, ByteBuffer buffer) {
        if (buffer.remaining() < bytes.length) {
            return -1;
        }
        buffer.put(bytes);
        return bytes.length;
    }
}
