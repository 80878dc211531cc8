package dev.agentd.examples.chat;

/**
 * What the chat needs from a screen: a transcript that grows line by line (streamed text
 * included), one status line below it that can be rewritten in place, and key bindings.
 * Implementations are thread-safe: events, timer ticks and key presses arrive on different threads.
 */
public interface Terminal {

    /** Appends streamed text to the transcript as is (no line break added). */
    void print(String text);

    /** Ends the line that streamed text left open, if any. */
    void endLine();

    /** Appends a whole line; it starts on a fresh line even after unfinished streamed text. */
    void println(String line);

    /** Replaces the status line; an empty text clears it. */
    void status(String text);

    /** Binds {@code action} to {@code key}; returns the action it replaces, or null. */
    Runnable bind(Key key, Runnable action);

    void unbind(Key key);

    /** The action bound to {@code key}, or null. */
    Runnable binding(Key key);
}
