package dev.agentd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor of the streaming set-up: the bench itself reads the same reply straight from the local
 * {@link SseServer} over HTTP, parsing every SSE {@code data:} line as JSON and assembling the text, as
 * a daemon must before it can write anything. No daemon, no stdout: what is left is the provider, the
 * loopback socket and one JSON parse per delta. A blocking {@link HttpURLConnection}, the plainest reader the
 * JDK has: {@code java.net.http}'s asynchronous hand-offs per chunk measured slower here than a daemon.
 */
final class HttpFloor {
    private HttpFloor() {}

    /** One read: its time (request sent → the stream's end) and the bytes of the response body. */
    record Read(double ms, long bytes) {}

    static Read read(SseServer server, int deltas) throws IOException, InterruptedException {
        server.enqueue(SseServer.Reply.stream(deltas));
        byte[] body = ("{\"model\":\"" + SseServer.MODEL + "\",\"stream\":true,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"count to " + deltas + "\"}]}").getBytes(StandardCharsets.UTF_8);
        long sent = System.nanoTime();
        HttpURLConnection connection = (HttpURLConnection) URI.create(server.baseUrl() + "/chat/completions").toURL()
                .openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setRequestProperty("content-type", "application/json");
        connection.setFixedLengthStreamingMode(body.length);
        try (OutputStream out = connection.getOutputStream()) {
            out.write(body);
        }
        AtomicLong bytes = new AtomicLong();
        StringBuilder text = new StringBuilder();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new Counting(connection.getInputStream(), bytes),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.startsWith("data: ")) {
                    continue;
                }
                String data = line.substring(6);
                if (data.equals("[DONE]")) {
                    break;
                }
                JsonNode chunk = Daemon.JSON.readTree(data);
                text.append(chunk.path("choices").path(0).path("delta").path("content").asText(""));
            }
        }
        double ms = Stats.ms(System.nanoTime() - sent);
        if (text.length() != deltas * 5) {
            throw new IllegalStateException("floor: incomplete reply, " + text.length() + " chars");
        }
        return new Read(ms, bytes.get());
    }

    /** Counts what the reader pulls from the socket. */
    private static final class Counting extends java.io.FilterInputStream {
        private final AtomicLong bytes;

        Counting(InputStream in, AtomicLong bytes) {
            super(in);
            this.bytes = bytes;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                bytes.incrementAndGet();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                bytes.addAndGet(n);
            }
            return n;
        }
    }
}
