package dev.agentd.server.acp;

/**
 * A session's title for an editor's history (A8): its name when the user gave one, else its first
 * user message on one line, cut. Pure.
 */
public final class SessionTitles {
    static final int MAX_CHARS = 80;
    /** How much of a first message is read for its title (whitespace runs collapse, so more than 80). */
    static final int SCANNED_CHARS = 4 * 1024;

    private SessionTitles() {}

    /** The title, or null when there is neither a name nor a message. */
    public static String of(String name, String firstMessage) {
        if (name != null && !name.isBlank()) {
            return name;
        }
        if (firstMessage == null || firstMessage.isBlank()) {
            return null;
        }
        // A first message may be megabytes: only its head can become the title, so only its head is scanned.
        String head = firstMessage.length() > SCANNED_CHARS ? firstMessage.substring(0, SCANNED_CHARS) : firstMessage;
        String line = head.strip().replaceAll("\\s+", " ");
        return line.length() <= MAX_CHARS ? line : line.substring(0, MAX_CHARS - 1).stripTrailing() + "…";
    }
}
