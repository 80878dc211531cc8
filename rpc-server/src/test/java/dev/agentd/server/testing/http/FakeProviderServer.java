package dev.agentd.server.testing.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An in-process provider endpoint on 127.0.0.1 (JDK {@code HttpServer}) that answers each request
 * with the next scripted {@link Reply}: real SSE streams (see {@link AnthropicWire},
 * {@link OpenAiWire}), real error bodies and headers, and faults — a connection dropped mid-stream,
 * headers then silence, a slow drip, garbage. Every request is logged (method, path, headers,
 * body) so tests can count attempts and inspect what was sent. Waiting inside the server (hangs,
 * drip pacing) ends at once when the server closes.
 */
public final class FakeProviderServer implements AutoCloseable {

    /** What one request should get. */
    public sealed interface Reply permits Stream, Body {}

    /** How a stream ends after its chunks. */
    public enum End {
        /** The terminating chunk is sent: a clean end of body. */
        FINISH,
        /** As FINISH, but the terminating chunk follows the last event 50 ms later (a slow network). */
        FINISH_LATE,
        /** The connection is closed without the terminating chunk (100 ms after the last one). */
        DROP,
        /** Nothing more is sent until the client goes away or the server closes. */
        HANG
    }

    /** A 200 (or other) event stream written chunk by chunk, each flushed, {@code delayMs} apart. */
    public record Stream(int status, Map<String, String> headers, List<String> chunks, long delayMs, End end)
            implements Reply {
        public Stream withDelay(long ms) {
            return new Stream(status, headers, chunks, ms, end);
        }

        public Stream ending(End how) {
            return new Stream(status, headers, chunks, delayMs, how);
        }
    }

    /** A complete response; an empty {@code body} is sent without a body at all. */
    public record Body(int status, Map<String, String> headers, String body) implements Reply {}

    /**
     * One request as the server received it. Header names are lower case; {@code clientPort} tells
     * connections apart (the same port twice = a reused connection); {@code target} is the raw
     * request target, path and query as sent.
     */
    public record RecordedRequest(String method, String path, Map<String, List<String>> headers, String body,
            int clientPort, String target) {
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        public JsonNode json() {
            try {
                return Json.mapper().readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public static Stream sse(List<String> chunks) {
        return new Stream(200, Map.of("content-type", "text/event-stream; charset=utf-8"), chunks, 0, End.FINISH);
    }

    public static Body json(int status, String body, Map<String, String> headers) {
        Map<String, String> all = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        all.put("content-type", "application/json");
        all.putAll(headers);
        return new Body(status, all, body);
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<RecordedRequest> requests = new ArrayList<>();
    /** {@link System#nanoTime()} at each request's arrival, in the order of {@link #requests}. */
    private final List<Long> arrivals = new ArrayList<>();
    private final AtomicInteger disconnects = new AtomicInteger();
    private final CountDownLatch closing = new CountDownLatch(1);
    /** What a request gets when no scripted reply is queued; null: a 500 "no scripted reply". */
    private Function<RecordedRequest, Reply> otherwise;

    private FakeProviderServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "fake-provider");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static FakeProviderServer start() {
        try {
            return new FakeProviderServer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public synchronized FakeProviderServer enqueue(Reply... next) {
        replies.addAll(List.of(next));
        return this;
    }

    /**
     * Answers every request that finds the queue empty with {@code reply} of it: an endless healthy
     * or failing provider, or one whose reply depends on what was sent (an echo of the request).
     */
    public synchronized FakeProviderServer otherwise(Function<RecordedRequest, Reply> reply) {
        this.otherwise = reply;
        return this;
    }

    public synchronized List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    /** When each request arrived ({@link System#nanoTime()}), in order: the gaps a client left between them. */
    public synchronized List<Long> arrivalNanos() {
        return List.copyOf(arrivals);
    }

    public synchronized int requestCount() {
        return requests.size();
    }

    public synchronized RecordedRequest lastRequest() {
        return requests.get(requests.size() - 1);
    }

    /** How many streams found their client gone while writing (abort, timeouts). */
    public int disconnects() {
        return disconnects.get();
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        // No try-with-resources: closing the exchange would finish a stream that must be dropped.
        byte[] body = exchange.getRequestBody().readAllBytes();
        Map<String, List<String>> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) ->
                headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
        Reply reply;
        synchronized (this) {
            arrivals.add(System.nanoTime());
            RecordedRequest request = new RecordedRequest(exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(), headers, new String(body, StandardCharsets.UTF_8),
                    exchange.getRemoteAddress().getPort(), exchange.getRequestURI().getRawPath()
                            + (exchange.getRequestURI().getRawQuery() == null ? ""
                                    : "?" + exchange.getRequestURI().getRawQuery()));
            requests.add(request);
            reply = replies.pollFirst();
            if (reply == null && otherwise != null) {
                reply = otherwise.apply(request);
            }
        }
        if (reply == null) {
            reply = json(500, "{\"error\":{\"type\":\"test_error\",\"message\":\"no scripted reply\"}}", Map.of());
        }
        if (reply instanceof Body full) {
            writeBody(exchange, full);
        } else {
            writeStream(exchange, (Stream) reply);
        }
    }

    private static void writeBody(HttpExchange exchange, Body reply) throws IOException {
        reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
        exchange.close();
    }

    private void writeStream(HttpExchange exchange, Stream reply) throws IOException {
        reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.sendResponseHeaders(reply.status(), 0);
        OutputStream out = exchange.getResponseBody();
        try {
            out.flush();
            for (int i = 0; i < reply.chunks().size(); i++) {
                if (i > 0 && reply.delayMs() > 0 && pause(reply.delayMs())) {
                    throw new DroppedConnection(); // the server is closing
                }
                out.write(reply.chunks().get(i).getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            disconnects.incrementAndGet();
            throw e;
        }
        switch (reply.end()) {
            case FINISH, FINISH_LATE -> {
                if (reply.end() == End.FINISH_LATE && pause(50)) {
                    throw new DroppedConnection();
                }
                out.close();
                exchange.close();
            }
            case DROP -> {
                // The JDK client discards received-but-unread bytes when the connection fails, so
                // give it a moment to read what was sent; then escaping the handler makes
                // HttpServer close the socket without the final chunk.
                pause(100);
                throw new DroppedConnection();
            }
            case HANG -> {
                awaitClose();
                throw new DroppedConnection();
            }
        }
    }

    /** Waits {@code ms} unless the server closes first; true if it is closing. */
    private boolean pause(long ms) {
        try {
            return closing.await(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private void awaitClose() {
        try {
            closing.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Thrown to make the server drop the connection. */
    private static final class DroppedConnection extends IOException {
        DroppedConnection() {
            super("dropped on purpose");
        }
    }
}
