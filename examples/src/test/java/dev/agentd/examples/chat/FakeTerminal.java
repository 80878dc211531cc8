package dev.agentd.examples.chat;

import java.util.ArrayList;
import java.util.List;

/** A terminal that records: finished transcript lines, the status line and its history, key bindings. */
final class FakeTerminal implements Terminal {
    private final KeyBindings keys = new KeyBindings();
    private final List<String> lines = new ArrayList<>();
    private final List<String> statuses = new ArrayList<>();
    private final StringBuilder partial = new StringBuilder();
    private String status = "";

    @Override
    public synchronized void print(String text) {
        for (char c : text.toCharArray()) {
            if (c == '\n') {
                lines.add(partial.toString());
                partial.setLength(0);
            } else {
                partial.append(c);
            }
        }
    }

    @Override
    public synchronized void endLine() {
        if (partial.length() > 0) {
            lines.add(partial.toString());
            partial.setLength(0);
        }
    }

    @Override
    public synchronized void println(String line) {
        endLine();
        lines.add(line);
    }

    @Override
    public synchronized void status(String text) {
        status = text;
        statuses.add(text);
    }

    @Override
    public Runnable bind(Key key, Runnable action) {
        return keys.bind(key, action);
    }

    @Override
    public void unbind(Key key) {
        keys.unbind(key);
    }

    @Override
    public Runnable binding(Key key) {
        return keys.binding(key);
    }

    /** The user presses {@code key} (on the calling thread, like the real input thread). */
    void press(Key key) {
        keys.press(key);
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    synchronized String status() {
        return status;
    }

    synchronized List<String> statuses() {
        return List.copyOf(statuses);
    }
}
