package dev.agentd.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TruncationTest {

    private static String numbered(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(Integer::toString).collect(Collectors.joining("\n"));
    }

    @Test
    void smallTextIsKeptWhole() {
        Truncation.Result head = Truncation.head("a\nb\n");
        assertFalse(head.truncated());
        assertNull(head.truncatedBy());
        assertEquals("a\nb", head.content());
        assertEquals(2, head.totalLines());
    }

    @Test
    void headKeepsTheFirstLinesAndTailTheLast() {
        String text = numbered(1, 5000);
        Truncation.Result head = Truncation.head(text);
        assertEquals(numbered(1, 2000), head.content());
        assertEquals(Truncation.Limit.LINES, head.truncatedBy());
        assertEquals(5000, head.totalLines());
        Truncation.Result tail = Truncation.tail(text);
        assertEquals(numbered(3001, 5000), tail.content());
        assertEquals(2000, tail.outputLines());
    }

    @Test
    void theByteLimitKeepsWholeLines() {
        String line = "x".repeat(99);
        String text = IntStream.range(0, 1000).mapToObj(i -> line).collect(Collectors.joining("\n"));
        Truncation.Result head = Truncation.head(text);
        assertEquals(Truncation.Limit.BYTES, head.truncatedBy());
        assertEquals(512, head.outputLines());
        assertTrue(head.outputBytes() <= Truncation.MAX_BYTES);
        Truncation.Result tail = Truncation.tail(text, 10, 250);
        assertEquals(2, tail.outputLines());
        assertEquals("bytes", tail.toJson().path("truncatedBy").asText());
    }

    @Test
    void anOverlongLastLineKeepsItsEnd() {
        String text = "start\n" + "a".repeat(100) + "END";
        Truncation.Result tail = Truncation.tail(text, 10, 10);
        assertTrue(tail.lastLinePartial());
        assertEquals("aaaaaaaEND", tail.content());
        Truncation.Result head = Truncation.head("b".repeat(20), 10, 10);
        assertTrue(head.firstLineExceedsLimit());
        assertEquals("", head.content());
    }

    @Test
    void longLinesAreCutWithAMarker() {
        assertEquals("abc", Truncation.truncateLine("abc", 5));
        assertEquals("abcde... [line truncated, 8 chars]", Truncation.truncateLine("abcdefgh", 5));
    }

    @Test
    void utf8LengthCountsMultiByteCharacters() {
        assertEquals(1 + 2 + 3 + 4, Truncation.utf8Length("a\u00e9\u20ac\uD83D\uDE00"));
        assertEquals("50.0KB", Truncation.formatSize(50 * 1024));
        assertEquals("12B", Truncation.formatSize(12));
    }
}
