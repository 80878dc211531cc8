package dev.agentd.server.e2e;

import dev.agentd.server.testing.Waits;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
 * The real {@code agentd.jar} in a child process, driven with raw JSON lines. Every stdout line is
 * kept raw and parsed: JSON objects are records, JSON arrays are batch replies (JSON-RPC mode),
 * and anything else is recorded so tests can assert there is none.
 */
public final class DaemonProcess implements AutoCloseable {
    private final Process process;
    private final OutputStream stdin;
    private final List<String> rawLines = Collections.synchronizedList(new ArrayList<>());
    private final List<JsonNode> records = Collections.synchronizedList(new ArrayList<>());
    private final List<JsonNode> batches = Collections.synchronizedList(new ArrayList<>());
    private final List<String> nonJson = Collections.synchronizedList(new ArrayList<>());
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread reader;
    private final Thread errReader;

    private DaemonProcess(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.reader = new Thread(this::readStdout, "test-daemon-stdout");
        this.errReader = new Thread(this::readStderr, "test-daemon-stderr");
        reader.setDaemon(true);
        errReader.setDaemon(true);
        reader.start();
        errReader.start();
    }

    /** The jar built by this module's package phase. */
    public static Path jar() {
        String configured = System.getProperty("agentd.jar");
        return Path.of(configured != null ? configured : "target/agentd.jar").toAbsolutePath();
    }

    public static List<String> javaCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(java, "-jar", jar().toString());
    }

    /**
     * The environment that gives a daemon bin/agentd's JVM options (C1 only, an AppCDS archive of
     * this jar), through {@code JAVA_TOOL_OPTIONS}, for ITs that start dozens of daemons: the first
     * daemon started with it must exit normally (EOF) to write {@code archive}; later ones load it,
     * which roughly halves a start's CPU. The JVM names the options on stderr, never on stdout.
     */
    public static Map<String, String> launcherJvm(Path archive) {
        String cds = java.nio.file.Files.exists(archive) ? "-XX:SharedArchiveFile=" : "-XX:ArchiveClassesAtExit=";
        return Map.of("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1 " + cds + archive);
    }

    public static DaemonProcess start(Path agentDir, Path cwd, String... args) throws IOException {
        return start(agentDir, cwd, Map.of(), args);
    }

    public static DaemonProcess start(Path agentDir, Path cwd, Map<String, String> env, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(javaCommand());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
        builder.environment().put("AGENTD_DIR", agentDir.toString());
        builder.environment().put("AGENTD_FAUX_CHUNK_DELAY_MS", "1");
        for (String key : List.of("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY")) {
            builder.environment().remove(key);
        }
        // A null value removes an inherited variable (HashMap callers).
        env.forEach((key, value) -> {
            if (value == null) {
                builder.environment().remove(key);
            } else {
                builder.environment().put(key, value);
            }
        });
        return new DaemonProcess(builder.start());
    }

    private void readStdout() {
        try (InputStream in = process.getInputStream()) {
            JsonlReader lines = new JsonlReader(in);
            JsonlReader.Line line;
            while ((line = lines.next()) != null) {
                if (line instanceof JsonlReader.Line.Text text) {
                    String raw = new String(text.bytes(), StandardCharsets.UTF_8);
                    rawLines.add(raw);
                    try {
                        JsonNode node = Json.mapper().readTree(text.bytes());
                        if (node instanceof ObjectNode) {
                            records.add(node);
                        } else if (node instanceof ArrayNode) {
                            batches.add(node);
                        } else {
                            nonJson.add(raw);
                        }
                    } catch (IOException e) {
                        nonJson.add(raw);
                    }
                } else {
                    nonJson.add("<too long line>");
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

    /** Writes one raw line (a newline is appended). */
    public void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** Writes raw bytes as one line (a newline is appended): invalid UTF-8 and NULs included. */
    public void sendRaw(byte[] line) throws IOException {
        stdin.write(line);
        stdin.write('\n');
        stdin.flush();
    }

    /** Writes bytes as they are: part of a line, or a block of LF-terminated lines in one write. */
    public void sendPart(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    /** Writes bytes in random pieces (mostly up to 64 KiB, one in eight up to 64 B), as a pipe may deliver them. */
    public void sendInPieces(byte[] bytes, java.util.Random random) throws IOException {
        for (int at = 0; at < bytes.length; ) {
            int n = Math.min(bytes.length - at, 1 + random.nextInt(random.nextInt(8) == 0 ? 64 : 64 * 1024));
            sendPart(java.util.Arrays.copyOfRange(bytes, at, at + n));
            at += n;
        }
    }

    public void send(JsonNode command) throws IOException {
        send(Json.mapper().writeValueAsString(command));
    }

    /** Builds {@code {"type":type,"id":id,...fields}} from alternating key/value pairs. */
    public static ObjectNode command(String type, String id, Object... fields) {
        ObjectNode node = Json.mapper().createObjectNode();
        node.put("type", type);
        if (id != null) {
            node.put("id", id);
        }
        for (int i = 0; i < fields.length; i += 2) {
            node.set((String) fields[i], Json.mapper().valueToTree(fields[i + 1]));
        }
        return node;
    }

    public List<JsonNode> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    /** Lines that were JSON arrays (JSON-RPC batch replies). */
    public List<JsonNode> batches() {
        synchronized (batches) {
            return List.copyOf(batches);
        }
    }

    public List<String> rawLines() {
        synchronized (rawLines) {
            return List.copyOf(rawLines);
        }
    }

    public List<String> nonJsonLines() {
        synchronized (nonJson) {
            return List.copyOf(nonJson);
        }
    }

    public List<String> types() {
        return records().stream().map(node -> node.path("type").asText()).toList();
    }

    /** Waits for, then returns, the first record matching {@code condition}. */
    public JsonNode await(Predicate<JsonNode> condition) {
        Waits.await().atMost(Duration.ofSeconds(30))
                .until(() -> records().stream().anyMatch(condition) || !process.isAlive());
        return records().stream().filter(condition).findFirst()
                .orElseThrow(() -> new AssertionError("daemon exited; stderr:\n" + stderr()));
    }

    /** Waits for the response carrying {@code id}. */
    public JsonNode response(String id) {
        return await(node -> "response".equals(node.path("type").asText()) && id.equals(node.path("id").asText()));
    }

    /** Sends a command and returns its response. */
    public JsonNode request(ObjectNode command) throws IOException {
        send(command);
        return response(command.path("id").asText());
    }

    /** Waits for the {@code n}-th (1-based) record of a type. */
    public JsonNode awaitNth(String type, int n) {
        Waits.await().atMost(Duration.ofSeconds(30))
                .until(() -> types().stream().filter(type::equals).count() >= n || !process.isAlive());
        return records().stream().filter(node -> type.equals(node.path("type").asText())).skip(n - 1).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " #" + n + "; stderr:\n" + stderr()));
    }

    /** Waits for the first {@code agent_end} after record {@code from} that ends the run (willRetry false). */
    public JsonNode awaitFinalAgentEnd(int from) {
        JsonNode[] end = {null};
        Waits.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
            if (!process.isAlive()) {
                throw new AssertionError("the daemon died; stderr:\n" + stderr());
            }
            List<JsonNode> all = records();
            end[0] = all.subList(Math.min(from, all.size()), all.size()).stream().filter(node ->
                    "agent_end".equals(node.path("type").asText()) && !node.path("willRetry").asBoolean())
                    .findFirst().orElse(null);
            return end[0] != null;
        });
        return end[0];
    }

    /** Waits until get_state (ids {@code prefix-0}, {@code prefix-1}, …) shows no run and no retry chain. */
    public void awaitIdle(String prefix) {
        int[] probe = {0};
        Waits.await().atMost(Duration.ofSeconds(30)).until(() -> {
            JsonNode state = request(command("get_state", prefix + "-" + probe[0]++)).path("data");
            return !state.path("isStreaming").asBoolean() && !state.path("isRetrying").asBoolean();
        });
    }

    public String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    public Process process() {
        return process;
    }

    /** Closes stdin and waits for the exit code. */
    public int closeStdinAndWait() throws IOException, InterruptedException {
        stdin.close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("daemon did not exit after EOF");
        }
        reader.join(5000);
        return process.exitValue();
    }

    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // already closed
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
