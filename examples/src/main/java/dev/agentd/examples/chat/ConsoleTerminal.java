package dev.agentd.examples.chat;

import java.io.PrintStream;

/**
 * {@link Terminal} on a console. Interactive (a tty in raw mode): the bottom of the screen is a
 * footer — the status line, if any, above the input line {@code > …} the user is typing — erased
 * and redrawn around every write with ANSI codes, so the countdown is rewritten in place. Plain
 * (piped, or no raw mode): the transcript only, each new status printed once as its own line.
 */
public final class ConsoleTerminal implements Terminal {
    private static final String ERASE_LINE = "\r\033[K";
    private static final String CURSOR_UP = "\033[A";

    private final PrintStream out;
    private final boolean interactive;
    private final KeyBindings keys = new KeyBindings();
    private String status = "";
    private String input = "";
    private boolean midLine; // the last streamed text did not end its line
    private int footerLines; // lines the footer occupies on screen now (0: not shown)

    public ConsoleTerminal(PrintStream out, boolean interactive) {
        this.out = out;
        this.interactive = interactive;
    }

    @Override
    public synchronized void print(String text) {
        if (text == null || text.isEmpty()) {
            return;
        }
        hideFooter();
        out.print(text);
        midLine = !text.endsWith("\n");
        showFooter();
    }

    @Override
    public synchronized void endLine() {
        if (midLine) {
            hideFooter();
            out.print("\n");
            midLine = false;
            showFooter();
        }
    }

    @Override
    public synchronized void println(String line) {
        hideFooter();
        out.print((midLine ? "\n" : "") + line + "\n");
        midLine = false;
        showFooter();
    }

    @Override
    public synchronized void status(String text) {
        String next = text == null ? "" : text;
        if (next.equals(status)) {
            return;
        }
        status = next;
        if (!interactive) {
            if (!next.isEmpty()) {
                println(next);
            }
            return;
        }
        hideFooter();
        if (midLine && !next.isEmpty()) {
            out.print("\n"); // a failed stream may stop mid-line; the status needs a line of its own
            midLine = false;
        }
        showFooter();
    }

    /** The text the user is typing (raw mode only; a cooked terminal echoes by itself). */
    synchronized void input(String text) {
        input = text;
        if (interactive) {
            hideFooter();
            if (midLine) {
                out.print("\n");
                midLine = false;
            }
            showFooter();
        }
    }

    /** The user pressed Enter: the typed line moves into the transcript. */
    synchronized void submitted(String line) {
        input = "";
        if (interactive) {
            println("> " + line);
        }
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

    /** Runs the action bound to {@code key} on the calling thread (outside this terminal's lock). */
    void press(Key key) {
        keys.press(key);
    }

    private void hideFooter() {
        if (footerLines > 0) {
            out.print(ERASE_LINE + (CURSOR_UP + ERASE_LINE).repeat(footerLines - 1));
            footerLines = 0;
        }
    }

    /** Redraws the footer, unless streamed text holds the cursor mid-line (it comes back after). */
    private void showFooter() {
        if (interactive && !midLine) {
            out.print((status.isEmpty() ? "" : status + "\n") + "> " + input);
            footerLines = status.isEmpty() ? 1 : 2;
        }
        out.flush();
    }
}
