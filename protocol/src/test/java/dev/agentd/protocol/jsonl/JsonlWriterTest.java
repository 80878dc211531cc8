package dev.agentd.protocol.jsonl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Response;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JsonlWriterTest {
    private static final ObjectMapper MAPPER = Json.mapper();

    /** Records every write call's bytes separately and counts flushes. */
    private static final class CountingStream extends OutputStream {
        final List<byte[]> writes = new ArrayList<>();
        final ByteArrayOutputStream all = new ByteArrayOutputStream();
        int flushes;

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            byte[] copy = new byte[len];
            System.arraycopy(b, off, copy, 0, len);
            writes.add(copy);
            all.write(b, off, len);
        }

        @Override
        public synchronized void flush() {
            flushes++;
        }

        synchronized String text() {
            return all.toString(StandardCharsets.UTF_8);
        }
    }

    /** A bean that cannot be serialized: its getter throws after a first property was written. */
    public static final class Exploding {
        public String getA() {
            return "first";
        }

        public String getZ() {
            throw new IllegalStateException("boom");
        }
    }

    /** As {@link Exploding}, with the error a huge record meets (issue 22, N2). */
    public static final class OutOfMemory {
        public String getA() {
            return "first";
        }

        public String getZ() {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    @Test
    void anErrorWhileSerializingLeavesNoHalfLineEither() throws IOException {
        CountingStream out = new CountingStream();
        JsonlWriter writer = new JsonlWriter(out, MAPPER);
        writer.append(Map.of("n", 1));
        assertThrows(OutOfMemoryError.class, () -> writer.append(new OutOfMemory()));
        writer.append(Map.of("n", 2));
        writer.flush();
        assertEquals("{\"n\":1}\n{\"n\":2}\n", out.text());
    }

    @Test
    void eachRecordIsOneLineWrittenWithOneWriteAndOneFlush() throws IOException {
        CountingStream out = new CountingStream();
        JsonlWriter writer = new JsonlWriter(out, MAPPER);

        writer.write(Map.of("type", "a"));
        assertEquals(1, out.writes.size());
        assertEquals(1, out.flushes);
        assertEquals("{\"type\":\"a\"}\n", new String(out.writes.get(0), StandardCharsets.UTF_8));

        writer.write(List.of(1, 2, 3));
        assertEquals(2, out.writes.size());
        assertEquals(2, out.flushes);
        assertEquals("[1,2,3]\n", new String(out.writes.get(1), StandardCharsets.UTF_8));

        assertEquals("{\"type\":\"a\"}\n[1,2,3]\n", out.text());
    }

    @Test
    void appendedRecordsGoOutInOneWriteAndAFailingOneLeavesNothing() throws IOException {
        CountingStream out = new CountingStream();
        JsonlWriter writer = new JsonlWriter(out, MAPPER);
        writer.append(Map.of("type", "a"));
        assertThrows(Exception.class, () -> writer.append(new Exploding()));
        writer.append(List.of(1, 2));
        assertEquals(0, out.writes.size(), "nothing is written before the flush");
        writer.flush();
        assertEquals(1, out.writes.size());
        assertEquals(1, out.flushes);
        assertEquals("{\"type\":\"a\"}\n[1,2]\n", out.text());
        writer.flush();
        assertEquals(1, out.writes.size(), "an empty batch writes nothing");
    }

    @Test
    void largeRecordIsStillOneWrite() throws IOException {
        CountingStream out = new CountingStream();
        JsonlWriter writer = new JsonlWriter(out, MAPPER);
        String big = "x".repeat(3 * 1024 * 1024); // larger than the writer's kept buffer
        writer.write(Map.of("s", big));
        writer.write(Map.of("s", "small"));
        assertEquals(2, out.writes.size());
        assertEquals(2, out.flushes);
        assertEquals("{\"s\":\"" + big + "\"}\n", new String(out.writes.get(0), StandardCharsets.UTF_8));
        assertEquals("{\"s\":\"small\"}\n", new String(out.writes.get(1), StandardCharsets.UTF_8));
    }

    @Test
    void prettyPrintingNeverSplitsARecordOverLines() throws IOException {
        CountingStream out = new CountingStream();
        new JsonlWriter(out, MAPPER).write(Map.of("nested", Map.of("list", List.of(Map.of("k", "v")))));
        String line = out.text();
        assertTrue(line.endsWith("\n"));
        assertEquals(line.length() - 1, line.indexOf('\n'), "exactly one LF, at the end");
    }

    @Test
    void concurrentWritesNeverInterleave() throws Exception {
        CountingStream out = new CountingStream();
        JsonlWriter writer = new JsonlWriter(out, MAPPER);
        int threads = 8;
        int perThread = 300;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        // Varying sizes, some above the internal buffer's initial capacity.
                        String payload = String.valueOf((char) ('a' + thread)).repeat(1 + (i * 97) % 20_000);
                        writer.write(Map.of("thread", thread, "seq", i, "payload", payload));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertEquals(threads * perThread, out.writes.size());
        assertEquals(threads * perThread, out.flushes);
        String[] lines = out.text().split("\n", -1);
        assertEquals(threads * perThread + 1, lines.length);
        assertEquals("", lines[lines.length - 1]);
        Set<String> seen = new HashSet<>();
        int[] nextSeq = new int[threads];
        for (int i = 0; i < lines.length - 1; i++) {
            JsonNode node = MAPPER.readTree(lines[i]);
            int thread = node.get("thread").intValue();
            int seq = node.get("seq").intValue();
            String payload = node.get("payload").textValue();
            assertEquals(String.valueOf((char) ('a' + thread)).repeat(1 + (seq * 97) % 20_000), payload);
            assertEquals(nextSeq[thread]++, seq, "records of one thread keep their order");
            assertTrue(seen.add(thread + "/" + seq));
        }
        assertEquals(threads * perThread, seen.size());
    }

    @Test
    void recordThatFailsToSerializeWritesNothing() throws IOException {
        CountingStream out = new CountingStream();
        JsonlWriter writer = new JsonlWriter(out, MAPPER);
        writer.write(Map.of("n", 1));

        assertThrows(IOException.class, () -> writer.write(new Exploding()));
        assertEquals(1, out.writes.size(), "nothing written for the failed record");
        assertEquals("{\"n\":1}\n", out.text());

        writer.write(Map.of("n", 2));
        assertEquals(2, out.writes.size());
        assertEquals("{\"n\":1}\n{\"n\":2}\n", out.text(), "no leftover of the failed record");
    }

    @Test
    void unicodeLineSeparatorsAreWrittenRaw() throws IOException {
        CountingStream out = new CountingStream();
        new JsonlWriter(out, MAPPER).write(Map.of("t", "a\u2028b\u2029c\u0085d\u00e9"));
        assertEquals("{\"t\":\"a\u2028b\u2029c\u0085d\u00e9\"}\n", out.text());
        assertArrayEquals("{\"t\":\"a\u2028b\u2029c\u0085d\u00e9\"}\n".getBytes(StandardCharsets.UTF_8),
                out.all.toByteArray());
        assertFalse(out.text().contains("\\u2028"));
    }

    @Test
    void writerOutputReadsBackThroughTheReader() throws IOException {
        CountingStream out = new CountingStream();
        JsonlWriter writer = new JsonlWriter(out, MAPPER);
        List<Map<String, String>> records = List.of(
                Map.of("t", "line\u2028sep"), Map.of("t", "cr\r\nlf"), Map.of("t", "\uD83D\uDE00"));
        for (Map<String, String> record : records) {
            writer.write(record);
        }
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(out.all.toByteArray()));
        for (Map<String, String> record : records) {
            JsonlReader.Line.Text line = (JsonlReader.Line.Text) reader.next();
            assertEquals(record, MAPPER.readValue(line.bytes(), Map.class));
        }
        assertEquals(null, reader.next());
    }

    /** Start-up (issue 18): ready, responses and trees never ask for the mapper; any other record does. */
    @Test
    void theFirstExchangeNeedsNoMapper() throws IOException {
        int[] asked = new int[1];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonlWriter writer = new JsonlWriter(out, () -> {
            asked[0]++;
            return MAPPER;
        });
        AgentEvent.Ready ready = new AgentEvent.Ready("dev", "rpc", null, List.of("a warning"));
        Response answer = Response.ok("1", "get_state", MAPPER.createObjectNode().put("isStreaming", false));
        writer.write(ready);
        writer.write(answer);
        writer.write(MAPPER.createObjectNode().put("id", 7).put("type", "response"));
        assertEquals(0, asked[0], "no mapper for the first exchange");
        writer.write(new AgentEvent.AgentStart());
        assertEquals(1, asked[0]);
        assertEquals(new String(MAPPER.writeValueAsBytes(ready), StandardCharsets.UTF_8) + "\n"
                + new String(MAPPER.writeValueAsBytes(answer), StandardCharsets.UTF_8) + "\n"
                + "{\"id\":7,\"type\":\"response\"}\n{\"type\":\"agent_start\"}\n",
                out.toString(StandardCharsets.UTF_8));
    }
}
