package dev.agentd.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;

/**
 * A local OpenAI-compatible provider for the benchmarks (JDK {@code HttpServer} on 127.0.0.1):
 * each {@code POST /chat/completions} gets the next scripted reply — a stream of {@code n} text
 * deltas in the real chat-completions SSE format (each chunk written and flushed on its own, as a
 * provider sends tokens), or an HTTP error. Every request's arrival is timestamped with
 * {@code System.nanoTime()}, comparable with the stdout timestamps of {@link Daemon}.
 */
final class SseServer implements AutoCloseable {
    static final String MODEL = "bench-model";

    static {
        // Small writes must leave at once, as a provider's tokens do: no Nagle delay (read by the
        // JDK server when its first instance is created).
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    /** One scripted answer: {@code status} 200 streams {@code deltas} chunks; others send an error body. */
    record Reply(int status, int deltas) {
        static Reply stream(int deltas) {
            return new Reply(200, deltas);
        }

        static Reply error(int status) {
            return new Reply(status, 0);
        }
    }

    private final HttpServer server;
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<Long> arrivals = new ArrayList<>();

    SseServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "bench-sse");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    synchronized void enqueue(Reply... next) {
        replies.addAll(List.of(next));
    }

    synchronized List<Long> arrivals() {
        return List.copyOf(arrivals);
    }

    /** Writes {@code models.json} (a custom provider {@code bench} pointing here) into {@code agentDir}. */
    void writeModelsJson(Path agentDir) throws IOException {
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"bench":{"baseUrl":"%s","api":"openai-completions","apiKey":"bench-key-literal",
                  "models":[{"id":"%s","name":"Bench","contextWindow":1000000,"maxTokens":100000}]}}}
                """.formatted(baseUrl(), MODEL));
    }

    private void handle(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        Reply reply;
        synchronized (this) {
            arrivals.add(System.nanoTime());
            reply = replies.pollFirst();
        }
        if (reply == null) {
            reply = Reply.error(500);
        }
        try (exchange) {
            if (reply.status() != 200) {
                byte[] body = ("{\"error\":{\"message\":\"bench " + reply.status()
                        + "\",\"type\":\"server_error\",\"param\":null,\"code\":null}}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("content-type", "application/json");
                exchange.sendResponseHeaders(reply.status(), body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            exchange.getResponseHeaders().add("content-type", "text/event-stream; charset=utf-8");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = new BufferedOutputStream(exchange.getResponseBody(), 1 << 16);
            chunk(out, "{\"role\":\"assistant\",\"content\":\"\"}", null);
            for (int i = 0; i < reply.deltas(); i++) {
                chunk(out, "{\"content\":\"" + delta(i) + "\"}", null);
            }
            chunk(out, "{}", "\"stop\"");
            write(out, "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1741570283,"
                    + "\"model\":\"" + MODEL + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":"
                    + reply.deltas() + ",\"total_tokens\":" + (20 + reply.deltas()) + "}}\n\n");
            write(out, "data: [DONE]\n\n");
        } catch (IOException e) {
            // the daemon went away (abort, shutdown)
        }
    }

    /** The i-th delta: five characters, so a reply of n deltas is 5n characters long. */
    static String delta(int i) {
        return String.format(Locale.ROOT, "%04d ", i % 10_000);
    }

    private static void chunk(OutputStream out, String delta, String finishReason) throws IOException {
        write(out, "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1741570283,"
                + "\"model\":\"" + MODEL + "\",\"choices\":[{\"index\":0,\"delta\":" + delta
                + ",\"logprobs\":null,\"finish_reason\":" + finishReason + "}],\"usage\":null}\n\n");
    }

    /** One SSE event per write and flush: the daemon sees tokens arrive one by one. */
    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
