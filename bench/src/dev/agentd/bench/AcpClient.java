package dev.agentd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The little of ACP a benchmark needs, as line JSON over a {@link Daemon}'s stdin and stdout:
 * requests with string ids, and answers found by polling the timestamped lines. The main thread
 * never holds the reader's lock while parsing, so the arrival stamps stay those of the read.
 */
final class AcpClient {
    private final Daemon daemon;
    /** Lines before this index were already searched by {@link #awaitResults}. */
    private int scanned;

    AcpClient(Daemon daemon) {
        this.daemon = daemon;
    }

    Daemon daemon() {
        return daemon;
    }

    /** Sends {@code method} with {@code params}; returns the time it was written. */
    long send(String id, String method, JsonNode params) throws IOException {
        ObjectNode request = Daemon.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        String line = request.toString();
        long now = System.nanoTime();
        daemon.send(line);
        return now;
    }

    /** Sends a request and waits for its result (an error answer fails the bench). */
    JsonNode call(String id, String method, JsonNode params) throws IOException, InterruptedException {
        send(id, method, params);
        return awaitResults(List.of(id), 60_000).get(0).json().path("result");
    }

    /**
     * Waits for the answers to {@code ids}, in that order in the returned list, polling every few
     * milliseconds; an error answer or the time limit fails the bench.
     */
    List<Daemon.Line> awaitResults(List<String> ids, long timeoutMs) throws InterruptedException {
        Daemon.Line[] found = new Daemon.Line[ids.size()];
        java.util.Map<String, Integer> wanted = new java.util.HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            wanted.put(ids.get(i), i);
        }
        int missing = ids.size();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        int from = scanned;
        while (missing > 0) {
            int size = daemon.size();
            for (; from < size; from++) {
                Daemon.Line line = daemon.line(from);
                if (!line.text().contains("\"id\":\"")) {
                    continue; // notifications (most lines): no parse
                }
                JsonNode node = line.json();
                Integer slot = node.has("method") ? null : wanted.get(node.path("id").asText());
                if (slot == null) {
                    continue;
                }
                if (node.has("error")) {
                    throw new IllegalStateException("request " + ids.get(slot) + " failed: " + node.path("error"));
                }
                found[slot] = line;
                missing--;
            }
            if (missing == 0) {
                break;
            }
            if (System.nanoTime() > deadline || !daemon.process.isAlive()) {
                throw new IllegalStateException(missing + " answers missing (timed out or the daemon exited)");
            }
            Thread.sleep(5);
        }
        scanned = from;
        return List.of(found);
    }

    /** Index of the next line to arrive (for reading a round's notifications afterwards). */
    int mark() {
        return daemon.size();
    }

    /** {@code initialize} as a client with no fs, terminal or session capabilities (no agent requests). */
    void initialize() throws IOException, InterruptedException {
        ObjectNode params = Daemon.JSON.createObjectNode().put("protocolVersion", 1);
        params.putObject("clientCapabilities");
        call("init", "initialize", params);
    }

    /** {@code session/new} in {@code cwd} with no MCP servers; returns the session id. */
    String newSession(String id, Path cwd) throws IOException, InterruptedException {
        ObjectNode params = Daemon.JSON.createObjectNode().put("cwd", cwd.toString());
        params.putArray("mcpServers");
        String sessionId = call(id, "session/new", params).path("sessionId").asText();
        if (sessionId.isEmpty()) {
            throw new IllegalStateException("session/new answered without a sessionId");
        }
        return sessionId;
    }

    static ObjectNode prompt(String sessionId, String text) {
        ObjectNode params = Daemon.JSON.createObjectNode().put("sessionId", sessionId);
        params.putArray("prompt").addObject().put("type", "text").put("text", text);
        return params;
    }

    /** An {@code agent_message_chunk}'s session and text, and when its line arrived. */
    record Chunk(long nanos, String sessionId, String text) {}

    /** The {@code agent_message_chunk}s among lines {@code from} (inclusive) to {@code to}. */
    List<Chunk> chunks(int from, int to) {
        List<Chunk> chunks = new ArrayList<>();
        for (int i = from; i < to; i++) {
            Daemon.Line line = daemon.line(i);
            if (!line.text().contains("\"agent_message_chunk\"")) {
                continue;
            }
            JsonNode params = line.json().path("params");
            JsonNode update = params.path("update");
            if ("agent_message_chunk".equals(update.path("sessionUpdate").asText())) {
                chunks.add(new Chunk(line.nanos(), params.path("sessionId").asText(),
                        update.path("content").path("text").asText()));
            }
        }
        return chunks;
    }
}
