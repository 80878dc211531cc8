package dev.agentd.server.sessionfile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.runtime.OwnFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;

/**
 * What a session list shows of one file, read without loading it: the header (the first line)
 * and the name, from at most {@link #WINDOW} bytes at the head and {@link #WINDOW} at the tail,
 * whatever the file's size. The name is the latest {@code session_info} entry in those windows —
 * a rename is usually near the start or the end; one buried in the middle of a long session is
 * not shown in the list (loading the session still finds it). The rest of the file is never read.
 *
 * @param file the session file
 * @param id the header's id (several files may share one: a copied file)
 * @param cwd the header's working directory, or null
 * @param name the session's name, or null
 * @param modified the file's last change
 * @param size the file's size in bytes
 * @param firstMessage the text of the first user message when it is whole in the head window, or
 *     null (a list titles unnamed sessions with it)
 */
public record SessionSummary(Path file, String id, String cwd, String name, Instant modified, long size,
        String firstMessage) {
    /** Bytes read at each end; a header line longer than this is not a session's. */
    static final int WINDOW = 64 * 1024;
    private static final byte[] INFO_TYPE = "\"session_info\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] USER_ROLE = "\"user\"".getBytes(StandardCharsets.US_ASCII);

    /** Opens a file for reading; a seam so tests can count the bytes read. */
    @FunctionalInterface
    interface Opener {
        SeekableByteChannel open(Path file) throws IOException;
    }

    /** The summary of {@code file}; {@link IOException} when it is not a readable session file. */
    public static SessionSummary read(Path file) throws IOException {
        return read(file, path -> FileChannel.open(path, StandardOpenOption.READ));
    }

    static SessionSummary read(Path file, Opener opener) throws IOException {
        OwnFiles.requireOpenable(file, "a session file"); // before opening: a FIFO blocks, /dev/zero never ends
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IOException("not a session file: " + file);
        }
        try (SeekableByteChannel channel = opener.open(file)) {
            long size = channel.size();
            byte[] head = readAt(channel, 0, (int) Math.min(size, WINDOW));
            int headerEnd = indexOf(head, 0, (byte) '\n');
            if (headerEnd < 0 && head.length == WINDOW) {
                throw new IOException("not a session file: " + file + " (no header within " + WINDOW + " bytes)");
            }
            int headerLength = headerEnd < 0 ? head.length : headerEnd;
            JsonNode header = Json.mapper().readTree(head, 0, headerLength);
            if (header == null || !"session".equals(header.path("type").asText())
                    || !header.path("id").isTextual()) {
                throw new IOException("not a session file: " + file + " (missing session header)");
            }
            String name = headerEnd < 0 ? null : latestName(head, headerEnd + 1, head.length, null);
            String firstMessage = headerEnd < 0 ? null : firstUserText(head, headerEnd + 1, head.length);
            if (size > WINDOW) {
                long tailStart = Math.max(WINDOW, size - WINDOW);
                byte[] tail = readAt(channel, tailStart, (int) (size - tailStart));
                // A tail window starting mid-line skips that line's rest.
                int from = tailStart == WINDOW && head[head.length - 1] == '\n' ? 0 : indexOf(tail, 0, (byte) '\n') + 1;
                if (from > 0 || tailStart == WINDOW) {
                    name = latestName(tail, from, tail.length, name);
                }
            }
            return new SessionSummary(file, header.path("id").textValue(), text(header, "cwd"), name,
                    attributes.lastModifiedTime().toInstant(), size, firstMessage);
        }
    }

    /** The name of the last whole {@code session_info} line in bytes[from, to), else {@code name}. */
    private static String latestName(byte[] bytes, int from, int to, String name) {
        int start = from;
        while (start < to) {
            int end = indexOf(bytes, start, (byte) '\n');
            if (end < 0) {
                break; // cut by the window (or a torn last line): not read
            }
            if (contains(bytes, start, end, INFO_TYPE)) {
                try {
                    JsonNode entry = Json.mapper().readTree(bytes, start, end - start);
                    if (entry != null && "session_info".equals(entry.path("type").asText())) {
                        name = text(entry, "name");
                    }
                } catch (IOException e) {
                    // an unreadable line names nothing
                }
            }
            start = end + 1;
        }
        return name;
    }

    /** The text of the first whole user message line in bytes[from, to), or null. */
    private static String firstUserText(byte[] bytes, int from, int to) {
        int start = from;
        while (start < to) {
            int end = indexOf(bytes, start, (byte) '\n');
            if (end < 0) {
                return null; // cut by the window: not read
            }
            if (contains(bytes, start, end, USER_ROLE)) {
                try {
                    JsonNode entry = Json.mapper().readTree(bytes, start, end - start);
                    JsonNode message = entry == null ? null : entry.path("message");
                    if ("message".equals(entry == null ? null : entry.path("type").asText())
                            && "user".equals(message.path("role").asText())) {
                        StringBuilder text = new StringBuilder();
                        message.path("content").forEach(block -> text.append(block.path("text").asText("")).append(' '));
                        return text.toString().strip();
                    }
                } catch (IOException e) {
                    // an unreadable line says nothing
                }
            }
            start = end + 1;
        }
        return null;
    }

    private static byte[] readAt(SeekableByteChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        channel.position(position);
        while (buffer.hasRemaining() && channel.read(buffer) > 0) {
            // fill the window (a file shrinking meanwhile ends it early)
        }
        byte[] bytes = new byte[buffer.position()];
        System.arraycopy(buffer.array(), 0, bytes, 0, bytes.length);
        return bytes;
    }

    private static int indexOf(byte[] bytes, int from, byte wanted) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static boolean contains(byte[] bytes, int from, int to, byte[] wanted) {
        outer:
        for (int i = from; i + wanted.length <= to; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (bytes[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() ? value.textValue() : null;
    }
}
