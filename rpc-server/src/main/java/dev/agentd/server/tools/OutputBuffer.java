package dev.agentd.server.tools;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A command's merged output as it arrives. Memory is bounded: only a window of the most recent
 * text is kept (enough for the tail the model sees). Once the output outgrows the model's budget,
 * everything — the part already received included — is written to a temp file, so the full output
 * stays available to the user.
 */
final class OutputBuffer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OutputBuffer.class);
    /** CSI and OSC escape sequences (colours, cursor moves, window titles). */
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]|\u001B\\][^\u0007\u001B]*(?:\u0007|\u001B\\\\)?|\u001B[@-Z\\\\-_]");

    /** Chars kept; at least {@link Truncation#MAX_BYTES}, since every char is at least one byte. */
    private final int windowChars;
    private final StringBuilder window = new StringBuilder();
    private boolean trimmed;
    private long totalBytes;
    private long newlines;
    private char lastChar = '\n';
    private long version;
    private boolean detached;
    private boolean fileOpened;
    private Writer file;
    private Path filePath;
    /** Output not yet taken by {@link #takeStreamed}; null when nobody streams it. */
    private final StringBuilder unstreamed;
    /** UTF-8 bytes admitted to the stream so far, at most {@link #STREAM_MAX_BYTES}. */
    private long streamedBytes;

    /**
     * How much of a command's output is streamed as it arrives: the same byte budget as the output
     * a result keeps, so a command printing gigabytes streams no more than its result holds (the
     * rest is in the full-output file).
     */
    static final long STREAM_MAX_BYTES = Truncation.MAX_BYTES;

    OutputBuffer() {
        this(2 * Truncation.MAX_BYTES, false);
    }

    /** @param streamed whether {@link #takeStreamed} is used: keeps the output's head for it */
    OutputBuffer(boolean streamed) {
        this(2 * Truncation.MAX_BYTES, streamed);
    }

    OutputBuffer(int windowChars) {
        this(windowChars, false);
    }

    private OutputBuffer(int windowChars, boolean streamed) {
        this.windowChars = Math.max(windowChars, Truncation.MAX_BYTES + 1);
        this.unstreamed = streamed ? new StringBuilder() : null;
    }

    synchronized void append(char[] chars, int offset, int length) {
        if (detached || length == 0) {
            return;
        }
        window.append(chars, offset, length);
        admitToStream(chars, offset, length);
        for (int i = offset; i < offset + length; i++) {
            totalBytes += Truncation.utf8Length(chars[i]);
            if (chars[i] == '\n') {
                newlines++;
            }
        }
        lastChar = chars[offset + length - 1];
        version++;
        if (!fileOpened && (totalBytes > Truncation.MAX_BYTES || totalLines() > Truncation.MAX_LINES)) {
            openFile();
        } else {
            writeToFile(chars, offset, length);
        }
        if (window.length() > 2 * windowChars) {
            window.delete(0, window.length() - windowChars);
            trimmed = true;
        }
    }

    /**
     * The output received since the last call, sanitised (escape sequences split between two calls
     * may leave a fragment), within {@link #STREAM_MAX_BYTES} over the whole command; empty when
     * there is nothing new or the budget is spent.
     */
    synchronized String takeStreamed() {
        if (unstreamed == null || unstreamed.isEmpty()) {
            return "";
        }
        // A surrogate pair split between two reads waits for its second half.
        int end = Character.isHighSurrogate(unstreamed.charAt(unstreamed.length() - 1)) ? unstreamed.length() - 1
                : unstreamed.length();
        String taken = sanitize(unstreamed.substring(0, end));
        unstreamed.delete(0, end);
        return taken;
    }

    private void admitToStream(char[] chars, int offset, int length) {
        if (unstreamed == null) {
            return;
        }
        int end = offset;
        while (end < offset + length) {
            int bytes = Truncation.utf8Length(chars[end]);
            if (streamedBytes + bytes > STREAM_MAX_BYTES) {
                break;
            }
            streamedBytes += bytes;
            end++;
        }
        if (end < offset + length && end > offset && Character.isHighSurrogate(chars[end - 1])) {
            end--; // never half a pair at the budget's edge
        }
        unstreamed.append(chars, offset, end - offset);
    }

    /** Increases with every append: tells a poller whether there is something new to report. */
    synchronized long version() {
        return version;
    }

    /** The model's view: the sanitised tail within the budget, with totals over the whole output. */
    synchronized Truncation.Result tail() {
        String text = window.toString();
        if (trimmed) {
            int newline = text.indexOf('\n');
            text = newline >= 0 ? text.substring(newline + 1) : text;
        }
        Truncation.Result result = Truncation.tail(sanitize(text));
        if (!trimmed) {
            return result;
        }
        Truncation.Limit cutBy = result.truncatedBy() == null ? Truncation.Limit.BYTES : result.truncatedBy();
        return new Truncation.Result(result.content(), cutBy, totalLines(), totalBytes, result.outputLines(),
                result.outputBytes(), result.lastLinePartial(), false, result.maxLines(), result.maxBytes());
    }

    /** The temp file with the full output, if the output outgrew the budget. */
    synchronized Path fullOutputPath() {
        return filePath;
    }

    @Override
    public synchronized void close() {
        detached = true;
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                LOG.warn("could not finish full output file {}: {}", filePath, e.getMessage());
            }
            file = null;
        }
    }

    private long totalLines() {
        return newlines + (lastChar != '\n' ? 1 : 0);
    }

    private void openFile() {
        fileOpened = true;
        try {
            filePath = Files.createTempFile("agentd-bash-", ".log");
            // Kept for the user while the daemon runs (its path is in the result), removed at exit.
            filePath.toFile().deleteOnExit();
            file = new BufferedWriter(Files.newBufferedWriter(filePath, StandardCharsets.UTF_8));
            // The window still holds everything: trimming starts only far beyond the budget.
            file.append(window);
        } catch (IOException e) {
            LOG.warn("could not keep full command output in a temp file: {}", e.getMessage());
            file = null;
            filePath = null;
        }
    }

    private void writeToFile(char[] chars, int offset, int length) {
        if (file == null) {
            return;
        }
        try {
            file.write(chars, offset, length);
        } catch (IOException e) {
            LOG.warn("could not write full output file {}: {}", filePath, e.getMessage());
            file = null;
        }
    }

    /** Drops escape sequences, carriage returns and other control characters (tabs and newlines stay). */
    static String sanitize(String text) {
        String plain = text.indexOf('\u001B') >= 0 ? ANSI.matcher(text).replaceAll("") : text;
        StringBuilder out = new StringBuilder(plain.length());
        for (int i = 0; i < plain.length(); i++) {
            char c = plain.charAt(i);
            if (c == '\n' || c == '\t' || (c >= 0x20 && c != 0x7F)) {
                out.append(c);
            }
        }
        return out.toString();
    }
}
