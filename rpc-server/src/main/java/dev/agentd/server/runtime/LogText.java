package dev.agentd.server.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * Text from a file or a client (a selector, a chain key, a settings value) as it may appear in a
 * warning or log line: control characters escaped, so a CR or LF cannot forge a line of its own
 * and a NUL cannot reach a terminal, and cut, so a megabyte key is not a megabyte line. Also the
 * bound on how many warnings one source may emit.
 */
public final class LogText {
    /** Characters of escaped text kept before the cut ("…" follows). */
    public static final int MAX_CHARS = 120;
    /** Warnings kept per list; the rest are counted in one last line. */
    public static final int MAX_WARNINGS = 20;

    private LogText() {}

    /**
     * {@code text} with {@code \n}, {@code \r}, {@code \t} and every other control, format
     * (bidi overrides among them), line/paragraph separator or lone surrogate character as a Java
     * escape, backslashes doubled, cut with "…" once the result reaches {@link #MAX_CHARS} characters.
     */
    public static String clip(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_CHARS) + 8);
        for (int i = 0; i < text.length(); ) {
            if (out.length() >= MAX_CHARS) {
                return out.append('…').toString();
            }
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (unsafe(c)) {
                        for (char unit : Character.toChars(c)) {
                            out.append(String.format("\\u%04x", (int) unit));
                        }
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** {@link #clip} between double quotes, a double quote inside escaped too. */
    public static String quoted(String text) {
        return "\"" + (text == null ? "null" : clip(text).replace("\"", "\\\"")) + "\"";
    }

    /** The first {@code max} warnings and, if there were more, one line counting the rest. */
    public static List<String> capped(List<String> warnings, int max) {
        if (warnings.size() <= max) {
            return warnings;
        }
        List<String> kept = new ArrayList<>(warnings.subList(0, max));
        kept.add("… and " + (warnings.size() - max) + " more");
        return kept;
    }

    private static boolean unsafe(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> true;
            default -> false;
        };
    }
}
