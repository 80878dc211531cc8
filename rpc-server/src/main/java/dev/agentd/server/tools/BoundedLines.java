package dev.agentd.server.tools;

import dev.agentd.server.runtime.CancellationToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a text file line by line keeping at most {@code keepChars} of each line, so that a file
 * with a multi-gigabyte line (a minified bundle, a sparse file) costs bounded memory instead of an
 * {@link OutOfMemoryError}. The full length of each line is still counted. Cancellation is checked
 * per buffer, so even a file without any line feed can be aborted. LF and CRLF end lines; invalid
 * UTF-8 becomes U+FFFD.
 */
final class BoundedLines implements AutoCloseable {
    /** One line: its first characters, and how long it really was. */
    record Line(String text, long length) {
        boolean cut() {
            return length > text.length();
        }

        /** The line as shown to the model: at most {@code maxChars}, with a note giving its real length. */
        String shown(int maxChars) {
            if (length <= maxChars) {
                return text;
            }
            int end = Math.min(maxChars, text.length());
            if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
                end--;
            }
            return text.substring(0, end) + "... [line truncated, " + length + " chars]";
        }
    }

    private final Reader in;
    private final int keepChars;
    private final CancellationToken cancel;
    private final char[] buffer = new char[8192];
    private int position;
    private int limit;
    private boolean eof;

    BoundedLines(Path file, int keepChars, CancellationToken cancel) throws IOException {
        this(Files.newInputStream(file), keepChars, cancel);
    }

    /** Over content already at hand (an editor's buffer, see {@link FileAccess}). */
    BoundedLines(InputStream content, int keepChars, CancellationToken cancel) {
        this.in = new InputStreamReader(content, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE));
        this.keepChars = keepChars;
        this.cancel = cancel == null ? CancellationToken.none() : cancel;
    }

    /** The next line, or null at the end of the file. */
    Line next() throws IOException {
        StringBuilder kept = new StringBuilder();
        long length = 0;
        boolean any = false;
        while (true) {
            if (position == limit && !fill()) {
                return any ? finish(kept, length) : null;
            }
            any = true;
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            int count = position - start;
            if (kept.length() < keepChars) {
                kept.append(buffer, start, Math.min(count, keepChars - kept.length()));
            }
            length += count;
            if (position < limit) {
                position++; // the line feed
                return finish(kept, length);
            }
        }
    }

    private Line finish(StringBuilder kept, long length) {
        long realLength = length;
        // A CR before the LF belongs to the line ending, not the text.
        if (realLength > 0 && realLength == kept.length() && kept.charAt(kept.length() - 1) == '\r') {
            kept.setLength(kept.length() - 1);
            realLength--;
        }
        return new Line(kept.toString(), realLength);
    }

    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        if (cancel.isCancelled()) {
            throw new ToolException("Aborted");
        }
        int n = in.read(buffer);
        if (n < 0) {
            eof = true;
            return false;
        }
        position = 0;
        limit = n;
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
