package dev.agentd.server.sessionfile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends whole JSONL lines to one file and keeps its tail whole: a line left without its line
 * feed by a crash is ended (when it was readable) or cut off (when it was not) before the next
 * append, and so is the partial line of a failed write. Not thread-safe: {@link SessionFile}
 * holds its lock around every call.
 */
final class LineAppender {
    private static final Logger LOG = LoggerFactory.getLogger(LineAppender.class);

    /** Writes one buffer; a seam so tests can make the disk fill up mid-line. */
    @FunctionalInterface
    interface ChannelWriter {
        int write(FileChannel channel, ByteBuffer buffer) throws IOException;
    }

    private enum Tail { CLEAN, ADD_NEWLINE, TRUNCATE }

    private final Path path;
    private Tail repairTail = Tail.CLEAN;
    /** Bytes of the file known to be whole lines (with TRUNCATE: the length to cut back to). */
    private long validLength;
    private boolean warnedWriteFailure;
    private ChannelWriter writer = FileChannel::write;

    LineAppender(Path path) {
        this.path = path;
    }

    /** After loading {@code bytes} from the file: what the tail needs before the next append. */
    void loaded(byte[] bytes, boolean lastLineReadable) {
        if (bytes.length > 0 && bytes[bytes.length - 1] != '\n') {
            repairTail = lastLineReadable ? Tail.ADD_NEWLINE : Tail.TRUNCATE;
            validLength = lastLineReadable ? bytes.length : lastIndexOf(bytes, (byte) '\n') + 1L;
        } else {
            validLength = bytes.length;
        }
    }

    /** Creates the file's directory; false (reported once) when it cannot. */
    boolean createParent() {
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            return true;
        } catch (IOException e) {
            reportWriteFailure(e);
            return false;
        }
    }

    /**
     * Appends whole lines with one write each, after repairing the tail. The channel has no
     * user-space buffer: once this returns true, the lines are in the file for any later reader,
     * a killed process included. A failure is reported once (until a write succeeds again).
     */
    boolean write(List<byte[]> lines) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            if (repairTail == Tail.TRUNCATE) {
                channel.truncate(validLength);
            } else if (repairTail == Tail.ADD_NEWLINE) {
                writeFully(channel, new byte[] {'\n'});
                validLength = channel.size();
            }
            repairTail = Tail.CLEAN;
            for (byte[] line : lines) {
                writeFully(channel, line);
            }
            validLength = channel.size();
            warnedWriteFailure = false;
            return true;
        } catch (IOException e) {
            if (repairTail == Tail.CLEAN) {
                // Part of a line may have reached the file: cut back to the last whole line first next time.
                repairTail = Tail.TRUNCATE;
            }
            reportWriteFailure(e);
            return false;
        }
    }

    /** Test seam: how buffers reach the channel. */
    void writeThrough(ChannelWriter writer) {
        this.writer = writer;
    }

    private void writeFully(FileChannel channel, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            writer.write(channel, buffer);
        }
    }

    private void reportWriteFailure(IOException e) {
        if (!warnedWriteFailure) {
            warnedWriteFailure = true;
            LOG.warn("could not write session file {}: {}; unwritten entries are retried with the next one", path,
                    e.toString());
        }
    }

    private static int lastIndexOf(byte[] bytes, byte value) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == value) {
                return i;
            }
        }
        return -1;
    }
}
