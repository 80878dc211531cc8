package dev.agentd.protocol.text;

import java.util.Optional;

/**
 * The first line of a text, for one-line messages a user reads (a parse error's reason, a
 * command's description). Every agentd module may use it, so the server's packages and the codec
 * cut a message the same way.
 */
public final class Lines {
    private Lines() {}

    /** The text before the first line break (all of it when there is none); empty for null. */
    public static Optional<String> firstLine(String text) {
        if (text == null) {
            return Optional.empty();
        }
        int newline = text.indexOf('\n');
        return Optional.of(newline < 0 ? text : text.substring(0, newline));
    }

    /** The first line that is not blank, stripped; empty when there is none (or for null). */
    public static Optional<String> firstNonBlankLine(String text) {
        if (text == null) {
            return Optional.empty();
        }
        return text.lines().filter(line -> !line.isBlank()).findFirst().map(String::strip);
    }
}
