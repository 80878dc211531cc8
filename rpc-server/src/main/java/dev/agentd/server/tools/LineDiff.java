package dev.agentd.server.tools;

import java.util.Arrays;

/**
 * A unified-style diff of two texts that differ in one contiguous region — exactly what a single
 * {@code edit} replacement produces — found by trimming the common leading and trailing lines.
 * This is not a general diff algorithm (it reports one hunk), and does not need to be.
 */
public final class LineDiff {
    public static final int DEFAULT_CONTEXT = 3;

    private LineDiff() {}

    /**
     * @param text the diff, with {@code ---}/{@code +++} headers and one {@code @@} hunk
     * @param firstChangedLine 1-based line in the new text where the change starts
     */
    public record Diff(String text, int firstChangedLine) {}

    /** Diffs LF-normalised texts; {@code label} names the file in the headers. */
    public static Diff unified(String label, String before, String after, int context) {
        String[] a = Truncation.lines(before);
        String[] b = Truncation.lines(after);
        int prefix = 0;
        while (prefix < a.length && prefix < b.length && a[prefix].equals(b[prefix])) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < a.length - prefix && suffix < b.length - prefix
                && a[a.length - 1 - suffix].equals(b[b.length - 1 - suffix])) {
            suffix++;
        }
        StringBuilder out = new StringBuilder();
        out.append("--- ").append(label).append('\n').append("+++ ").append(label).append('\n');
        if (prefix == a.length && prefix == b.length) {
            // Same lines: only a trailing newline (or line-ending style) differs.
            out.append("@@ only the final newline changed @@\n");
            return new Diff(out.toString(), Math.max(1, a.length));
        }
        int start = Math.max(0, prefix - context);
        int aEnd = Math.min(a.length, a.length - suffix + context);
        int bEnd = Math.min(b.length, b.length - suffix + context);
        out.append("@@ -").append(range(start, aEnd - start)).append(" +").append(range(start, bEnd - start))
                .append(" @@\n");
        appendLines(out, ' ', a, start, prefix);
        appendLines(out, '-', a, prefix, a.length - suffix);
        appendLines(out, '+', b, prefix, b.length - suffix);
        appendLines(out, ' ', a, a.length - suffix, aEnd);
        return new Diff(out.toString(), prefix + 1);
    }

    private static String range(int start, int count) {
        // Unified format: an empty range is numbered by the line before it.
        return (count == 0 ? start : start + 1) + "," + count;
    }

    private static void appendLines(StringBuilder out, char marker, String[] lines, int from, int to) {
        for (String line : Arrays.asList(lines).subList(from, Math.max(from, to))) {
            out.append(marker).append(line).append('\n');
        }
    }
}
