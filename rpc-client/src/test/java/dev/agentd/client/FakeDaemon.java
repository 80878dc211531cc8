package dev.agentd.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlReader;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.protocol.response.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A scripted daemon on the other end of two pipes: reads command lines with JsonlReader, runs the
 * handler registered for the command's type (unhandled commands get no answer), and writes
 * responses and events with JsonlWriter. get_state is answered by default so start() works.
 */
final class FakeDaemon implements AutoCloseable {

    interface Handler {
        void handle(ObjectNode command, FakeDaemon daemon) throws Exception;
    }

    private static final int PIPE_SIZE = 1 << 20; // large, so writers never wait for space

    private final PipedInputStream clientIn;
    private final PipedOutputStream daemonOut;
    private final PipedInputStream daemonIn;
    private final PipedOutputStream clientOut;
    private final JsonlWriter writer;
    private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
    private final BlockingQueue<ObjectNode> received = new LinkedBlockingQueue<>();
    private final Thread thread;

    FakeDaemon() {
        try {
            clientIn = new PipedInputStream(PIPE_SIZE);
            daemonOut = new PipedOutputStream(clientIn);
            daemonIn = new PipedInputStream(PIPE_SIZE);
            clientOut = new PipedOutputStream(daemonIn);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writer = new JsonlWriter(daemonOut, Json.mapper());
        on("get_state", (command, daemon) -> daemon.respond(command, json("{\"isStreaming\":false}")));
        thread = new Thread(this::serve, "fake-daemon");
        thread.setDaemon(true);
        thread.start();
    }

    /** The daemon's stdout, for the client. */
    InputStream stdout() {
        return clientIn;
    }

    /** The daemon's stdin, for the client. */
    OutputStream stdin() {
        return clientOut;
    }

    FakeDaemon on(String type, Handler handler) {
        handlers.put(type, handler);
        return this;
    }

    /** The next received command of {@code type} (others are skipped). */
    ObjectNode take(String type) throws InterruptedException {
        while (true) {
            ObjectNode command = received.poll(10, TimeUnit.SECONDS);
            if (command == null) {
                throw new AssertionError("no " + type + " command received");
            }
            if (type.equals(command.path("type").asText())) {
                return command;
            }
        }
    }

    void respond(ObjectNode command, JsonNode data) throws IOException {
        write(Response.ok(id(command), command.path("type").asText(), data));
    }

    void respondNull(ObjectNode command) throws IOException {
        respond(command, NullNode.getInstance());
    }

    void refuse(ObjectNode command, String error) throws IOException {
        write(Response.failure(id(command), command.path("type").asText(), error));
    }

    /** Writes raw JSON records (events, stray responses), one per argument. */
    void emit(String... records) throws IOException {
        for (String record : records) {
            write(json(record));
        }
    }

    void write(Object record) throws IOException {
        writer.write(record);
    }

    /** Raw bytes, for garbage lines. */
    void writeRaw(String text) throws IOException {
        daemonOut.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        daemonOut.flush();
    }

    /** The daemon's stdout ends (as if it crashed). */
    void closeOutput() throws IOException {
        daemonOut.close();
    }

    private void serve() {
        try (JsonlReader reader = new JsonlReader(daemonIn)) {
            for (JsonlReader.Line line; (line = reader.next()) != null; ) {
                if (line instanceof JsonlReader.Line.Text text) {
                    ObjectNode command = (ObjectNode) Json.mapper().readTree(text.bytes());
                    received.add(command);
                    Handler handler = handlers.get(command.path("type").asText());
                    if (handler != null) {
                        handler.handle(command, this);
                    }
                }
            }
        } catch (Exception e) {
            // The client went away; the fake just stops.
        } finally {
            try {
                daemonOut.close(); // like the real daemon: exit on stdin EOF
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        clientOut.close();
        daemonOut.close();
    }

    static String id(ObjectNode command) {
        JsonNode id = command.get("id");
        return id == null ? null : id.asText();
    }

    static JsonNode json(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // --- event snippets ------------------------------------------------------------------------

    static final String AGENT_START = "{\"type\":\"agent_start\"}";
    static final String TURN_START = "{\"type\":\"turn_start\"}";

    static String agentEnd(Boolean willRetry) {
        String flag = willRetry == null ? "" : ",\"willRetry\":" + willRetry;
        return "{\"type\":\"agent_end\",\"messages\":[]" + flag + "}";
    }

    static String textDelta(String delta) {
        return "{\"type\":\"message_update\",\"message\":{\"role\":\"assistant\",\"content\":[],\"timestamp\":1},"
                + "\"assistantMessageEvent\":{\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"" + delta + "\"}}";
    }

    static String assistantEnd(String stopReason) {
        return "{\"type\":\"message_end\",\"message\":{\"role\":\"assistant\",\"content\":[],\"stopReason\":\""
                + stopReason + "\",\"timestamp\":1}}";
    }

    static String retryStart(int attempt) {
        return "{\"type\":\"auto_retry_start\",\"attempt\":" + attempt + ",\"maxAttempts\":3,\"delayMs\":"
                + (1000L << (attempt - 1)) + ",\"errorMessage\":\"529 overloaded\"}";
    }

    static String retryEnd(boolean success, int attempt, String finalError) {
        return "{\"type\":\"auto_retry_end\",\"success\":" + success + ",\"attempt\":" + attempt
                + (finalError == null ? "" : ",\"finalError\":\"" + finalError + "\"") + "}";
    }
}
