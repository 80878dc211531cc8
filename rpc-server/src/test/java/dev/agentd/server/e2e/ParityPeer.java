package dev.agentd.server.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.Waits;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One RPC peer of {@link PiParityIT} — pi 1.6.0's CLI or agentd's jar — as a child process driven
 * with JSON lines: every stdout line is parsed and kept in arrival order, so the test can compare
 * the two sides' records. Waits are generous (60 s) and end early when the process dies.
 */
final class ParityPeer implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final String name;
    private final Process process;
    private final OutputStream stdin;
    private final List<JsonNode> records = Collections.synchronizedList(new ArrayList<>());
    private final List<String> nonJson = Collections.synchronizedList(new ArrayList<>());
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

    private ParityPeer(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = process.getOutputStream();
        daemon(this::readStdout, name + "-stdout");
        daemon(this::readStderr, name + "-stderr");
    }

    static ParityPeer start(String name, List<String> command, Path cwd, Map<String, String> env)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
        // neither side may find a real credential: the scripted provider is the only one
        for (String key : List.of("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY",
                "GEMINI_API_KEY")) {
            builder.environment().remove(key);
        }
        builder.environment().putAll(env);
        return new ParityPeer(name, builder.start());
    }

    private static void daemon(Runnable body, String threadName) {
        Thread thread = new Thread(body, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    private void readStdout() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                try {
                    JsonNode node = Json.mapper().readTree(line);
                    if (node instanceof ObjectNode) {
                        records.add(node);
                    } else {
                        nonJson.add(line);
                    }
                } catch (IOException e) {
                    nonJson.add(line);
                }
            }
        } catch (IOException e) {
            // the process went away
        }
    }

    private void readStderr() {
        try (InputStream in = process.getErrorStream()) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                synchronized (stderr) {
                    stderr.write(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            // the process went away
        }
    }

    String name() {
        return name;
    }

    void send(JsonNode command) throws IOException {
        stdin.write((Json.mapper().writeValueAsString(command) + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    List<JsonNode> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    List<String> nonJsonLines() {
        synchronized (nonJson) {
            return List.copyOf(nonJson);
        }
    }

    int size() {
        return records.size();
    }

    /** Waits for the first record at index {@code from} or later matching {@code condition}; returns it. */
    JsonNode await(int from, String what, Predicate<JsonNode> condition) {
        Waits.await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() ->
                find(from, condition) != null || !process.isAlive());
        JsonNode found = find(from, condition);
        if (found == null) {
            throw new AssertionError(name + " exited before " + what + "; stderr:\n" + ExternalTools.tail(stderr()));
        }
        return found;
    }

    private JsonNode find(int from, Predicate<JsonNode> condition) {
        List<JsonNode> all = records();
        return all.subList(Math.min(from, all.size()), all.size()).stream().filter(condition).findFirst()
                .orElse(null);
    }

    /** Waits for a record of {@code type} at index {@code from} or later. */
    JsonNode awaitType(int from, String type) {
        return await(from, type, node -> type.equals(node.path("type").asText()));
    }

    /** Sends {@code command} and waits for the response with its id. */
    JsonNode request(ObjectNode command) throws IOException {
        int from = size();
        send(command);
        String id = command.path("id").asText();
        return await(from, "the response to " + id, node -> "response".equals(node.path("type").asText())
                && id.equals(node.path("id").asText()));
    }

    String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // already closed
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
