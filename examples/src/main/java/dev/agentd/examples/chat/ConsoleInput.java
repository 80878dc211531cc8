package dev.agentd.examples.chat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads what the user types until end of input. Raw mode (the tty delivers each key at once, no
 * echo): a minimal line editor — printable characters, Backspace, Enter — plus Esc as a key and
 * Ctrl-D on an empty line as end of input. Line mode (cooked tty or a pipe): whole lines; a line
 * holding only an Esc character (Esc then Enter on a cooked tty) counts as the Esc key.
 */
final class ConsoleInput {
    private static final char ESC = 0x1b;
    private static final char CTRL_D = 0x04;
    private static final char BACKSPACE = 0x08;
    private static final char DELETE = 0x7f;

    private final ConsoleTerminal terminal;
    private final Consumer<String> onLine;

    ConsoleInput(ConsoleTerminal terminal, Consumer<String> onLine) {
        this.terminal = terminal;
        this.onLine = onLine;
    }

    /** Reads lines until end of input; returns then (never closes {@code in}). */
    void readLines(InputStream in) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (line.equals(String.valueOf(ESC))) {
                terminal.press(Key.ESCAPE);
            } else {
                onLine.accept(line);
            }
        }
    }

    /** Reads keys until end of input or Ctrl-D on an empty line. */
    void readKeys(InputStream in) throws IOException {
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8);
        StringBuilder line = new StringBuilder();
        for (int c = reader.read(); c != -1; c = reader.read()) {
            if (c == ESC) {
                // A key such as an arrow sends ESC and its sequence in one burst; a lone ESC is the key.
                if (reader.ready()) {
                    skipSequence(reader);
                } else {
                    terminal.press(Key.ESCAPE);
                }
            } else if (c == '\r' || c == '\n') {
                String text = line.toString();
                line.setLength(0);
                terminal.submitted(text);
                onLine.accept(text);
            } else if (c == DELETE || c == BACKSPACE) {
                deleteLast(line);
                terminal.input(line.toString());
            } else if (c == CTRL_D) {
                if (line.length() == 0) {
                    return;
                }
            } else if (c >= ' ') {
                line.append((char) c);
                terminal.input(line.toString());
            }
        }
    }

    /** Consumes the rest of an escape sequence: CSI ({@code ESC [ … final}) or SS3 ({@code ESC O x}). */
    private static void skipSequence(Reader reader) throws IOException {
        int kind = reader.read();
        if (kind == 'O') {
            reader.read();
        } else if (kind == '[') {
            int c = reader.read();
            while (c != -1 && (c < 0x40 || c > 0x7e)) {
                c = reader.read();
            }
        }
        // Anything else (Alt+key) is dropped with its ESC.
    }

    private static void deleteLast(StringBuilder line) {
        int length = line.length();
        if (length == 0) {
            return;
        }
        boolean pair = length >= 2 && Character.isLowSurrogate(line.charAt(length - 1))
                && Character.isHighSurrogate(line.charAt(length - 2));
        line.setLength(length - (pair ? 2 : 1));
    }
}
