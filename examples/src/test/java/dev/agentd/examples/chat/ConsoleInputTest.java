package dev.agentd.examples.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Key decoding of the console input, in raw and line mode. */
class ConsoleInputTest {
    private final ByteArrayOutputStream screen = new ByteArrayOutputStream();
    private final List<String> lines = new ArrayList<>();
    private final List<Key> pressed = new ArrayList<>();

    @Test
    void rawModeEditsLinesAndSeparatesEscapeFromKeySequences() throws IOException {
        ConsoleInput input = input(true);
        // "hi", Backspace, "é!", Enter; an arrow key (ESC [ A); a lone Esc at the end of the burst.
        input.readKeys(stream("hi\u007fé!\r\u001b[A\u001b"));

        assertEquals(List.of("hé!"), lines);
        assertEquals(List.of(Key.ESCAPE), pressed);
    }

    @Test
    void ctrlDOnAnEmptyLineEndsTheInputButNotInTheMiddleOfALine() throws IOException {
        ConsoleInput input = input(true);
        input.readKeys(stream("ab\u0004c\n\u0004ignored\n"));

        assertEquals(List.of("abc"), lines);
    }

    @Test
    void lineModeReadsWholeLinesAndTakesALoneEscapeCharacterAsTheKey() throws IOException {
        ConsoleInput input = input(false);
        input.readLines(stream("first\n\u001b\nsecond"));

        assertEquals(List.of("first", "second"), lines);
        assertEquals(List.of(Key.ESCAPE), pressed);
    }

    @Test
    void aPlainTerminalPrintsEachNewStatusOnceAndStartsLinesAfterStreamedText() {
        ConsoleTerminal terminal = new ConsoleTerminal(new PrintStream(screen, true, StandardCharsets.UTF_8), false);
        terminal.print("Hel");
        terminal.print("lo");
        terminal.status("Retrying (1/3) in 2s… (esc to cancel)");
        terminal.status("Retrying (1/3) in 2s… (esc to cancel)");
        terminal.status("");
        terminal.println("Retry cancelled");

        assertEquals("Hello\nRetrying (1/3) in 2s… (esc to cancel)\nRetry cancelled\n",
                screen.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anInteractiveTerminalRewritesTheStatusAboveTheInputLineInPlace() {
        ConsoleTerminal terminal = new ConsoleTerminal(new PrintStream(screen, true, StandardCharsets.UTF_8), true);
        terminal.status("in 2s");
        terminal.status("in 1s");
        terminal.status("");

        assertEquals("in 2s\n> " + "\r\033[K\033[A\r\033[K" + "in 1s\n> " + "\r\033[K\033[A\r\033[K" + "> ",
                screen.toString(StandardCharsets.UTF_8));
    }

    private ConsoleInput input(boolean interactive) {
        ConsoleTerminal terminal = new ConsoleTerminal(new PrintStream(screen, true, StandardCharsets.UTF_8), interactive);
        terminal.bind(Key.ESCAPE, () -> pressed.add(Key.ESCAPE));
        return new ConsoleInput(terminal, lines::add);
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
