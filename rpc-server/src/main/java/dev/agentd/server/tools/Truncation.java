package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The one output budget of all tools: at most {@link #MAX_LINES} lines and {@link #MAX_BYTES} UTF-8
 * bytes, whichever comes first. {@link #head} keeps the beginning (file reads, listings),
 * {@link #tail} keeps the end (command output, where errors come last). Only whole lines are kept,
 * except when the single last line of a tail is itself over budget.
 */
public final class Truncation {
    public static final int MAX_LINES = 2000;
    public static final int MAX_BYTES = 50 * 1024;
    /** Longest line {@code read} shows before cutting it. */
    public static final int MAX_LINE_CHARS = 2000;

    private Truncation() {}

    /** Which limit cut the output. */
    public enum Limit {
        LINES, BYTES;

        String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What a truncation kept.
     *
     * @param truncatedBy null when nothing was cut
     * @param lastLinePartial a tail kept only the end of one over-long line
     * @param firstLineExceedsLimit a head could not keep even its first line
     */
    public record Result(String content, Limit truncatedBy, long totalLines, long totalBytes, int outputLines,
            long outputBytes, boolean lastLinePartial, boolean firstLineExceedsLimit, int maxLines, int maxBytes) {

        public boolean truncated() {
            return truncatedBy != null;
        }

        /** The {@code truncation} object of a tool result's details. */
        public ObjectNode toJson() {
            ObjectNode node = Json.mapper().createObjectNode();
            node.put("truncated", truncated());
            if (truncatedBy != null) {
                node.put("truncatedBy", truncatedBy.json());
            }
            node.put("totalLines", totalLines);
            node.put("totalBytes", totalBytes);
            node.put("outputLines", outputLines);
            node.put("outputBytes", outputBytes);
            node.put("lastLinePartial", lastLinePartial);
            node.put("firstLineExceedsLimit", firstLineExceedsLimit);
            node.put("maxLines", maxLines);
            node.put("maxBytes", maxBytes);
            return node;
        }
    }

    public static Result head(String text) {
        return head(text, MAX_LINES, MAX_BYTES);
    }

    public static Result head(String text, int maxLines, int maxBytes) {
        Head head = new Head(maxLines, maxBytes);
        for (String line : lines(text)) {
            head.add(line);
        }
        return head.result();
    }

    public static Result tail(String text) {
        return tail(text, MAX_LINES, MAX_BYTES);
    }

    public static Result tail(String text, int maxLines, int maxBytes) {
        String[] lines = lines(text);
        long totalBytes = 0;
        for (int i = 0; i < lines.length; i++) {
            totalBytes += utf8Length(lines[i]) + (i > 0 ? 1 : 0);
        }
        Deque<String> kept = new ArrayDeque<>();
        long bytes = 0;
        Limit cutBy = null;
        boolean partial = false;
        for (int i = lines.length - 1; i >= 0; i--) {
            long lineBytes = utf8Length(lines[i]) + (kept.isEmpty() ? 0 : 1);
            if (kept.size() == maxLines) {
                cutBy = Limit.LINES;
                break;
            }
            if (bytes + lineBytes > maxBytes) {
                cutBy = Limit.BYTES;
                if (kept.isEmpty()) {
                    String end = lastBytes(lines[i], maxBytes);
                    kept.addFirst(end);
                    bytes = utf8Length(end);
                    partial = true;
                }
                break;
            }
            kept.addFirst(lines[i]);
            bytes += lineBytes;
        }
        return new Result(String.join("\n", kept), cutBy, lines.length, totalBytes, kept.size(), bytes, partial,
                false, maxLines, maxBytes);
    }

    /** Cuts a line longer than {@code maxChars}, saying how long it was. */
    public static String truncateLine(String line, int maxChars) {
        if (line.length() <= maxChars) {
            return line;
        }
        int end = maxChars;
        if (end > 0 && Character.isHighSurrogate(line.charAt(end - 1))) {
            end--;
        }
        return line.substring(0, end) + "... [line truncated, " + line.length() + " chars]";
    }

    /** 512B, 12.3KB, 4.0MB. */
    public static String formatSize(long bytes) {
        if (bytes < 1024) {
            return bytes + "B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1fKB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1fMB", bytes / (1024.0 * 1024.0));
    }

    /** UTF-8 length without encoding (surrogate pairs count 2 + 2 = 4). */
    public static long utf8Length(CharSequence text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            bytes += utf8Length(text.charAt(i));
        }
        return bytes;
    }

    static int utf8Length(char c) {
        if (c < 0x80) {
            return 1;
        }
        if (c < 0x800 || Character.isSurrogate(c)) {
            return 2;
        }
        return 3;
    }

    /** Lines of {@code text}; a final newline ends the last line rather than starting an empty one. */
    static String[] lines(String text) {
        if (text.isEmpty()) {
            return new String[0];
        }
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        return body.split("\n", -1);
    }

    private static String lastBytes(String line, int maxBytes) {
        long bytes = 0;
        int start = line.length();
        while (start > 0) {
            int size = utf8Length(line.charAt(start - 1));
            if (bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            start--;
        }
        if (start > 0 && start < line.length() && Character.isLowSurrogate(line.charAt(start))) {
            start++;
        }
        return line.substring(start);
    }

    /**
     * A streaming head: lines are offered one by one; once the budget is full the rest are only
     * counted, so a huge file costs no memory.
     */
    public static final class Head {
        private final int maxLines;
        private final int maxBytes;
        private final StringBuilder content = new StringBuilder();
        private long totalLines;
        private long totalBytes;
        private int outputLines;
        private long outputBytes;
        private Limit cutBy;
        private boolean firstLineExceeds;

        public Head(int maxLines, int maxBytes) {
            this.maxLines = maxLines;
            this.maxBytes = maxBytes;
        }

        /** Offers the next line; returns false once the budget is full (the line is only counted). */
        public boolean add(String line) {
            long lineBytes = utf8Length(line);
            totalBytes += lineBytes + (totalLines > 0 ? 1 : 0);
            totalLines++;
            if (cutBy != null) {
                return false;
            }
            long cost = lineBytes + (outputLines > 0 ? 1 : 0);
            if (outputLines == maxLines) {
                cutBy = Limit.LINES;
                return false;
            }
            if (outputBytes + cost > maxBytes) {
                cutBy = Limit.BYTES;
                firstLineExceeds = outputLines == 0;
                return false;
            }
            if (outputLines > 0) {
                content.append('\n');
            }
            content.append(line);
            outputLines++;
            outputBytes += cost;
            return true;
        }

        /** True once a line has been refused. */
        public boolean full() {
            return cutBy != null;
        }

        public Result result() {
            return new Result(content.toString(), cutBy, totalLines, totalBytes, outputLines, outputBytes, false,
                    firstLineExceeds, maxLines, maxBytes);
        }
    }
}
