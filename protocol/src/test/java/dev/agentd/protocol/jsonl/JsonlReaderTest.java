package dev.agentd.protocol.jsonl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonlReaderTest {

    // --- helpers ---------------------------------------------------------------------------

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonlReader reader(String text) {
        return new JsonlReader(new ByteArrayInputStream(utf8(text)));
    }

    private static String text(JsonlReader.Line line) {
        JsonlReader.Line.Text text = assertInstanceOf(JsonlReader.Line.Text.class, line);
        return new String(text.bytes(), StandardCharsets.UTF_8);
    }

    private static long tooLong(JsonlReader.Line line) {
        return assertInstanceOf(JsonlReader.Line.TooLong.class, line).length();
    }

    /** Every line until end of stream, as strings ("<too long N>" for skipped lines). */
    private static List<String> all(JsonlReader reader) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonlReader.Line line; (line = reader.next()) != null; ) {
            out.add(line instanceof JsonlReader.Line.TooLong t ? "<too long " + t.length() + ">" : text(line));
        }
        return out;
    }

    /** Returns at most one byte per read call, so every multi-byte character is split across reads. */
    private static final class OneByteAtATime extends InputStream {
        private final InputStream in;
        int reads;

        OneByteAtATime(byte[] bytes) {
            this.in = new ByteArrayInputStream(bytes);
        }

        @Override
        public int read() throws IOException {
            reads++;
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            reads++;
            return len == 0 ? 0 : in.read(b, off, 1);
        }
    }

    /**
     * A stream of {@code size} bytes of 'x' then "\n" + {@code tail}, produced on the fly in reads
     * of at most {@code chunk} bytes (nothing of this size ever exists in memory).
     */
    private static final class Generated extends InputStream {
        private final long size;
        private final byte[] tail;
        private final int chunk;
        private long position;
        int reads;

        Generated(long size, String tail, int chunk) {
            this.size = size;
            this.tail = utf8(tail);
            this.chunk = chunk;
        }

        private long total() {
            return size + tail.length;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position >= total()) {
                return -1;
            }
            reads++;
            int n = (int) Math.min(Math.min(len, chunk), total() - position);
            int filler = (int) Math.max(0, Math.min(n, size - position));
            java.util.Arrays.fill(b, off, off + filler, (byte) 'x');
            for (int i = filler; i < n; i++) {
                b[off + i] = tail[(int) (position + i - size)];
            }
            position += n;
            return n;
        }
    }

    // --- Unicode line separators -----------------------------------------------------------

    @Test
    void unicodeLineSeparatorsStayInsideTheRecord() throws IOException {
        String record = "{\"text\":\"a\u2028b\u2029c\u0085d\"}";
        byte[] bytes = utf8(record + "\n{\"n\":2}\n");
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(bytes));

        JsonlReader.Line.Text first = assertInstanceOf(JsonlReader.Line.Text.class, reader.next());
        assertArrayEquals(utf8(record), first.bytes());
        assertEquals("{\"n\":2}", text(reader.next()));
        assertNull(reader.next());
    }

    @Test
    void unicodeLineSeparatorsSplitAcrossReadsStayInsideTheRecord() throws IOException {
        String record = "{\"text\":\"\u2028\u2029\u0085\"}";
        JsonlReader reader = new JsonlReader(new OneByteAtATime(utf8(record + "\n")));
        assertArrayEquals(utf8(record), assertInstanceOf(JsonlReader.Line.Text.class, reader.next()).bytes());
        assertNull(reader.next());
    }

    // --- CR handling -------------------------------------------------------------------------

    @Test
    void crlfStripsOneTrailingCr() throws IOException {
        assertEquals(List.of("{\"a\":1}", "{\"b\":2}"), all(reader("{\"a\":1}\r\n{\"b\":2}\r\n")));
    }

    @Test
    void onlyOneTrailingCrIsStripped() throws IOException {
        assertEquals(List.of("a\r", "b"), all(reader("a\r\r\nb\r\n")));
    }

    @Test
    void loneCrIsNotALineBreak() throws IOException {
        assertEquals(List.of("a\rb"), all(reader("a\rb\n")));
    }

    @Test
    void crOfUnterminatedTailIsStripped() throws IOException {
        assertEquals(List.of("a"), all(reader("a\r")));
    }

    // --- UTF-8 split across reads ------------------------------------------------------------

    @Test
    void multiByteCharactersSplitAcrossReadsDecode() throws IOException {
        String record = "{\"t\":\"caf\u00e9 \u20ac \uD83D\uDE00 \u4e2d\"}";
        OneByteAtATime in = new OneByteAtATime(utf8(record + "\n" + record));
        JsonlReader reader = new JsonlReader(in);

        assertEquals(record, text(reader.next()));
        assertEquals(record, text(reader.next()));
        assertNull(reader.next());
        assertTrue(in.reads > utf8(record).length, "the stream really was read one byte at a time");
    }

    // --- over-long lines ---------------------------------------------------------------------

    @Test
    void lineOverTheLimitIsReportedWithItsLengthAndTheNextLineIsServed() throws IOException {
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(utf8("0123456789abcdefXYZ\n{\"ok\":1}\n")), 16);
        assertEquals(19, tooLong(reader.next()));
        assertEquals("{\"ok\":1}", text(reader.next()));
        assertNull(reader.next());
    }

    @Test
    void lineExactlyAtTheLimitIsAccepted() throws IOException {
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(utf8("0123456789abcdef\n0123456789abcdefg\n")), 16);
        assertEquals("0123456789abcdef", text(reader.next()));
        assertEquals(17, tooLong(reader.next()));
        assertNull(reader.next());
    }

    @Test
    void tooLongLinesBetweenGoodLines() throws IOException {
        String big = "y".repeat(100);
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(utf8("a\n" + big + "\n" + big + "\nb\n")), 16);
        assertEquals(List.of("a", "<too long 100>", "<too long 100>", "b"), all(reader));
    }

    @Test
    void tooLongLineAtEndOfStreamWithoutLf() throws IOException {
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(utf8("{\"ok\":1}\n" + "z".repeat(40))), 16);
        assertEquals("{\"ok\":1}", text(reader.next()));
        assertEquals(40, tooLong(reader.next()));
        assertNull(reader.next());
        assertNull(reader.next());
    }

    @Test
    void tooLongLineArrivingOneByteAtATime() throws IOException {
        JsonlReader reader = new JsonlReader(new OneByteAtATime(utf8("z".repeat(50) + "\n{\"ok\":1}\n")), 16);
        assertEquals(50, tooLong(reader.next()));
        assertEquals("{\"ok\":1}", text(reader.next()));
        assertNull(reader.next());
    }

    @Test
    void hugeLineIsCountedNotBuffered() throws IOException {
        long size = 10L * 1024 * 1024;
        Generated in = new Generated(size, "\n{\"after\":true}\n", 4096);
        JsonlReader reader = new JsonlReader(in, 1024);

        assertEquals(size, tooLong(reader.next()));
        assertEquals("{\"after\":true}", text(reader.next()));
        assertNull(reader.next());
        assertTrue(in.reads > 1000, "the line arrived across many reads");
    }

    @Test
    void hugeLineBeyondIntRangeIsCounted() throws IOException {
        // 2.5 GiB: would overflow any int-sized buffer or counter; the reader must only count it.
        long size = 5L * 512 * 1024 * 1024;
        JsonlReader reader = new JsonlReader(new Generated(size, "\n{\"after\":1}", 64 * 1024), 1024);
        assertEquals(size, tooLong(reader.next()));
        assertEquals("{\"after\":1}", text(reader.next()));
        assertNull(reader.next());
    }

    @Test
    void limitMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new JsonlReader(InputStream.nullInputStream(), 0));
    }

    // --- blank lines, tails, end of stream ----------------------------------------------------

    @Test
    void blankAndWhitespaceOnlyLinesAreSkipped() throws IOException {
        assertEquals(List.of("{\"a\":1}", "{\"b\":2}", " {\"c\":3} "),
                all(reader("\n\n   \n\t\n \t \r\n\r\n\r\r\n \r \n{\"a\":1}\n\n  \n{\"b\":2}\n \t\n {\"c\":3} \n\n")));
    }

    @Test
    void unterminatedFinalLineIsDelivered() throws IOException {
        assertEquals(List.of("{\"a\":1}", "{\"b\":2}"), all(reader("{\"a\":1}\n{\"b\":2}")));
    }

    @Test
    void unterminatedBlankTailIsNotARecord() throws IOException {
        assertEquals(List.of("{\"a\":1}"), all(reader("{\"a\":1}\n  \t")));
    }

    @Test
    void emptyStreamGivesNullAndStaysNull() throws IOException {
        JsonlReader reader = reader("");
        assertNull(reader.next());
        assertNull(reader.next());
        assertNull(reader.next());
    }

    @Test
    void nextStaysNullAfterEndOfStream() throws IOException {
        JsonlReader reader = reader("{\"a\":1}\n{\"b\":2}");
        assertEquals("{\"a\":1}", text(reader.next()));
        assertEquals("{\"b\":2}", text(reader.next()));
        assertNull(reader.next());
        assertNull(reader.next());
    }

    @Test
    void recordsLargerThanTheReadChunkAreReassembled() throws IOException {
        // Bigger than the reader's internal read chunk and its initial line buffer.
        String big = "{\"s\":\"" + "\u00e9".repeat(200_000) + "\"}";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(utf8(big + "\n" + big + "\n{\"small\":1}\n"));
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(bytes.toByteArray()));
        assertEquals(big, text(reader.next()));
        assertEquals(big, text(reader.next()));
        assertEquals("{\"small\":1}", text(reader.next()));
        assertNull(reader.next());
    }

    @Test
    void closeClosesTheStream() throws IOException {
        boolean[] closed = {false};
        InputStream in = new ByteArrayInputStream(new byte[0]) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        new JsonlReader(in).close();
        assertTrue(closed[0]);
    }
}
