package dev.agentd.server.ai.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** WHATWG event-stream parsing rules, incrementally. */
class SseParserTest {
    private final List<SseEvent> events = new ArrayList<>();
    private final List<String> comments = new ArrayList<>();

    private final SseParser.Handler collect = new SseParser.Handler() {
        @Override
        public boolean onEvent(SseEvent event) {
            events.add(event);
            return true;
        }

        @Override
        public void onComment(String comment) {
            comments.add(comment);
        }
    };

    private List<SseEvent> parse(String text) throws IOException {
        new SseParser(collect).parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        return events;
    }

    @Test
    void eventAndDataFieldsDispatchOnBlankLine() throws IOException {
        parse("event: message_start\ndata: {\"a\":1}\n\nevent: ping\ndata: {}\n\n");
        assertEquals(List.of(new SseEvent("message_start", "{\"a\":1}", null), new SseEvent("ping", "{}", null)),
                events);
    }

    @Test
    void everyLineEndingStyleWorks() throws IOException {
        parse("data: a\r\n\r\ndata: b\r\rdata: c\n\n");
        assertEquals(List.of("a", "b", "c"), events.stream().map(SseEvent::data).toList());
    }

    @Test
    void carriageReturnAndLineFeedSplitAcrossReadsAreOneLineEnd() throws IOException {
        SseParser parser = new SseParser(collect);
        byte[] first = "data: x\r".getBytes(StandardCharsets.UTF_8);
        byte[] second = "\n\r\n".getBytes(StandardCharsets.UTF_8);
        parser.feed(first, 0, first.length);
        parser.feed(second, 0, second.length);
        assertEquals(List.of(new SseEvent("message", "x", null)), events);
    }

    @Test
    void multiLineDataIsJoinedWithNewlines() throws IOException {
        parse("data: first\ndata:second\ndata:  third\n\n");
        assertEquals("first\nsecond\n third", events.get(0).data());
    }

    @Test
    void commentsAreReportedNotDispatched() throws IOException {
        parse(": OPENROUTER PROCESSING\n\ndata: x\n\n");
        assertEquals(List.of("OPENROUTER PROCESSING"), comments);
        assertEquals(1, events.size());
    }

    @Test
    void defaultTypeIsMessageAndIdPersists() throws IOException {
        parse("id: 7\ndata: a\n\ndata: b\n\n");
        assertEquals(List.of(new SseEvent("message", "a", "7"), new SseEvent("message", "b", "7")), events);
    }

    @Test
    void eventsWithoutDataAreDroppedWithTheirType() throws IOException {
        parse("event: lonely\n\ndata: x\n\n");
        assertEquals(List.of(new SseEvent("message", "x", null)), events);
    }

    @Test
    void anEmptyDataLineStillDispatches() throws IOException {
        parse("data:\n\n");
        assertEquals(List.of(new SseEvent("message", "", null)), events);
    }

    @Test
    void aFieldWithoutColonHasAnEmptyValueAndUnknownFieldsAreIgnored() throws IOException {
        parse("data\nretry: 100\nfoo: bar\n\n");
        assertEquals(List.of(new SseEvent("message", "", null)), events);
    }

    @Test
    void aMissingFinalBlankLineStillDispatchesAtEof() throws IOException {
        parse("data: [DONE]");
        assertEquals(List.of(new SseEvent("message", "[DONE]", null)), events);
    }

    @Test
    void aLeadingByteOrderMarkIsSkipped() throws IOException {
        parse("\uFEFFdata: x\n\n");
        assertEquals("x", events.get(0).data());
    }

    @Test
    void multiByteCharactersSplitAcrossReadsSurvive() throws IOException {
        byte[] bytes = "data: héllo €\n\n".getBytes(StandardCharsets.UTF_8);
        SseParser parser = new SseParser(collect);
        for (int i = 0; i < bytes.length; i++) {
            parser.feed(bytes, i, 1);
        }
        assertEquals("héllo €", events.get(0).data());
    }

    @Test
    void theHandlerStopsReadingAndNothingMoreIsConsumed() throws IOException {
        CountingStream in = new CountingStream("data: 1\n\ndata: 2\n\n".getBytes(StandardCharsets.UTF_8));
        boolean ended = new SseParser(event -> {
            events.add(event);
            return false;
        }).parse(in);
        assertFalse(ended);
        assertEquals(1, events.size());
    }

    @Test
    void eventsArriveBeforeTheStreamEnds() throws IOException {
        // A stream that fails after its first event: the event must already have been delivered.
        InputStream failing = new InputStream() {
            private final byte[] first = "data: early\n\n".getBytes(StandardCharsets.UTF_8);
            private int position;

            @Override
            public int read() throws IOException {
                if (position < first.length) {
                    return first[position++];
                }
                throw new IOException("connection reset");
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                if (position >= first.length) {
                    throw new IOException("connection reset");
                }
                int n = Math.min(length, first.length - position);
                System.arraycopy(first, position, buffer, offset, n);
                position += n;
                return n;
            }
        };
        assertThrows(IOException.class, () -> new SseParser(collect).parse(failing));
        assertEquals(List.of(new SseEvent("message", "early", null)), events);
    }

    @Test
    void anOverlongLineFails() {
        byte[] line = ("data: " + "x".repeat(100)).getBytes(StandardCharsets.UTF_8);
        IOException e = assertThrows(IOException.class,
                () -> new SseParser(collect, 64).parse(new ByteArrayInputStream(line)));
        assertTrue(e.getMessage().contains("64"));
    }

    private static final class CountingStream extends ByteArrayInputStream {
        CountingStream(byte[] bytes) {
            super(bytes);
        }
    }
}
