package dev.agentd.server.ai;

/**
 * Lengths to which text from a provider (body, header, stream) is cut before anything parses or
 * matches it, so the work done on hostile input stays bounded. Real values are far shorter: an
 * error type is a short identifier, a stop reason one word, a hint a few characters.
 */
public final class TextBounds {
    /** An error type or code ({@code error.type}, {@code error.code}); real ones are under 64 chars. */
    public static final int MAX_TYPE_CHARS = 256;
    /** A {@code stop_reason} or {@code finish_reason}; real ones are one short word. */
    public static final int MAX_REASON_CHARS = 256;
    /** The body text quoted in an errorMessage (SPEC §6.1). */
    public static final int MAX_BODY_CHARS = 2000;
    /** A whole errorMessage: the quoted body plus agentd's short prefix ({@code "<status> "} and the like). */
    public static final int MAX_ERROR_MESSAGE_CHARS = MAX_BODY_CHARS + 100;
    /** The text of an error body searched for a retry hint (SPEC §5.5); hints sit near the start. */
    public static final int MAX_HINT_SOURCE_CHARS = 16 * 1024;
    /**
     * A header value read for a retry hint. Longer values are no hint at all rather than cut: a cut
     * value would parse as a different duration.
     */
    public static final int MAX_HEADER_CHARS = 1024;

    private TextBounds() {}

    /** The first {@code max} chars of {@code text} (null stays null), never splitting a surrogate pair. */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = max;
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end);
    }
}
