package dev.agentd.protocol.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class LinesTest {
    @Test
    void theFirstLineEndsAtTheFirstBreak() {
        assertEquals(Optional.of("one"), Lines.firstLine("one\ntwo"));
        assertEquals(Optional.of("only"), Lines.firstLine("only"));
        assertEquals(Optional.of(""), Lines.firstLine("\nsecond"));
        assertEquals(Optional.empty(), Lines.firstLine(null));
    }

    @Test
    void theFirstNonBlankLineSkipsBlankOnesAndIsStripped() {
        assertEquals(Optional.of("title"), Lines.firstNonBlankLine("\n  \n  title  \nbody"));
        assertEquals(Optional.empty(), Lines.firstNonBlankLine(" \n\t\n"));
        assertEquals(Optional.empty(), Lines.firstNonBlankLine(null));
    }
}
