package dev.agentd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * One daemon process for a benchmark: spawned with its own agent directory and working directory,
 * stdout read on a thread that timestamps every line on arrival ({@code System.nanoTime}, so the
 * times compare with the in-process SSE server's) and counts bytes. stderr goes to a file.
 */
final class Daemon implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** A stdout line and when it arrived. */
    record Line(long nanos, String text) {
        JsonNode json() {
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + text, e);
            }
        }

        boolean is(String type) {
            // Cheap pre-filter before parsing: full-mode updates can be megabytes long.
            return text.startsWith("{\"type\":\"" + type + "\"") || (text.contains("\"type\":\"" + type + "\"")
                    && type.equals(json().path("type").asText()));
        }

        boolean isResponse(String id) {
            return text.contains("\"id\":\"" + id + "\"") && "response".equals(json().path("type").asText())
                    && id.equals(json().path("id").asText());
        }
    }

    /** Parse every stdout line as JSON on arrival, as a real client does (PeerBench sets it). */
    static volatile boolean parseEveryLine;

    private static final byte[] UPDATE_PREFIX = "{\"type\":\"message_update\"".getBytes(StandardCharsets.UTF_8);

    final long spawnedAt;
    final Process process;
    private final OutputStream stdin;
    private final List<Line> lines = new ArrayList<>();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong updates = new AtomicLong();
    private volatile long firstUpdate;
    private volatile String firstUpdateLine;
    private volatile long lastUpdate;
    private final Thread reader;

    private Daemon(long spawnedAt, Process process) {
        this.spawnedAt = spawnedAt;
        this.process = process;
        this.stdin = process.getOutputStream();
        this.reader = new Thread(this::read, "bench-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Spawns {@code command} in {@code work} (agent dir {@code work/agent}); the first line, when
     * given, is written right after the spawn, as a client waiting for {@code get_state} would.
     */
    static Daemon spawn(List<String> command, Path work, Map<String, String> env, String firstLine)
            throws IOException {
        Path agent = Files.createDirectories(work.resolve("agent"));
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile())
                .redirectError(work.resolve("stderr.log").toFile());
        builder.environment().put("AGENTD_DIR", agent.toString());
        for (String key : List.of("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY")) {
            builder.environment().remove(key);
        }
        builder.environment().putAll(env);
        long t0 = System.nanoTime();
        Daemon daemon = new Daemon(t0, builder.start());
        if (firstLine != null) {
            daemon.send(firstLine);
        }
        return daemon;
    }

    private void read() {
        byte[] buffer = new byte[1 << 16];
        ByteArrayLine pending = new ByteArrayLine();
        try (InputStream in = process.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                long now = System.nanoTime();
                bytes.addAndGet(n);
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        pending.append(buffer, start, i - start);
                        if (parseEveryLine) {
                            pending.parse();
                        }
                        if (pending.startsWith(UPDATE_PREFIX) || pending.isUpdate()) {
                            // Counted, not kept: full-mode updates add up to hundreds of MB.
                            if (updates.incrementAndGet() == 1) {
                                firstUpdate = now;
                                firstUpdateLine = pending.peek(); // short: tells the update form apart
                            }
                            lastUpdate = now;
                            pending.clear();
                        } else {
                            add(new Line(now, pending.take()));
                        }
                        start = i + 1;
                    }
                }
                pending.append(buffer, start, n - start);
            }
        } catch (IOException e) {
            // the process went away
        }
    }

    private synchronized void add(Line line) {
        lines.add(line);
        notifyAll();
    }

    void send(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    long stdoutBytes() {
        return bytes.get();
    }

    /** How many {@code message_update} lines arrived (they are not kept). */
    long updates() {
        return updates.get();
    }

    /** Forgets the updates seen so far (count and arrival times). */
    void resetUpdates() {
        updates.set(0);
        firstUpdate = 0;
        firstUpdateLine = null;
        lastUpdate = 0;
    }

    /**
     * The form of the {@code message_update}s since the last reset, as seen on the wire: "full" when
     * the first one carries the cumulative message ({@code message} or {@code assistantMessageEvent.partial},
     * pi 0.73's form), "delta" when it carries only the event (pi 1.6's form), "none" without updates.
     */
    String updateForm() {
        String first = firstUpdateLine;
        if (first == null) {
            return "none";
        }
        JsonNode update = new Line(0, first).json();
        return update.has("message") || update.path("assistantMessageEvent").has("partial") ? "full" : "delta";
    }

    /** Arrival of the first and last {@code message_update} since the last reset (nanoTime), 0 if none. */
    long firstUpdate() {
        return firstUpdate;
    }

    long lastUpdate() {
        return lastUpdate;
    }

    synchronized List<Line> lines() {
        return List.copyOf(lines);
    }

    /** Waits for the first line after index {@code from} matching {@code test}; returns its index. */
    synchronized int await(int from, Predicate<Line> test, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        int i = from;
        while (true) {
            for (; i < lines.size(); i++) {
                if (test.test(lines.get(i))) {
                    return i;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !process.isAlive() && i >= lines.size()) {
                throw new IllegalStateException("timed out or daemon exited waiting after line " + from);
            }
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }

    synchronized Line line(int index) {
        return lines.get(index);
    }

    synchronized int size() {
        return lines.size();
    }

    /** VmRSS of the process in kB (Linux), or -1. */
    long rssKb() {
        return status("VmRSS:");
    }

    /** VmHWM, the process's peak resident set so far, in kB (Linux), or -1. */
    long peakRssKb() {
        return status("VmHWM:");
    }

    private long status(String field) {
        try {
            for (String row : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (row.startsWith(field)) {
                    return Long.parseLong(row.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** EOF, then up to 15 s for an orderly exit. */
    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // already gone
        }
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            reader.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** A growable byte buffer for one line (full-mode lines reach hundreds of kB). */
    private static final class ByteArrayLine {
        private byte[] data = new byte[8192];
        private int size;

        void append(byte[] src, int from, int count) {
            if (size + count > data.length) {
                data = java.util.Arrays.copyOf(data, Math.max(data.length * 2, size + count));
            }
            System.arraycopy(src, from, data, size, count);
            size += count;
        }

        boolean startsWith(byte[] prefix) {
            return size >= prefix.length && java.util.Arrays.equals(data, 0, prefix.length, prefix, 0, prefix.length);
        }

        void clear() {
            size = 0;
        }

        /** The line as a JSON tree (thrown away: the cost of a client's parse is what counts). */
        void parse() {
            try {
                JSON.readTree(data, 0, size);
            } catch (IOException e) {
                throw new UncheckedIOException("stdout line is not JSON", e);
            }
        }

        /** pi writes {@code message_update} with other fields first; a cheap look at its head. */
        boolean isUpdate() {
            int head = Math.min(size, 200);
            return new String(data, 0, head, StandardCharsets.UTF_8).contains("\"type\":\"message_update\"");
        }

        String peek() {
            return new String(data, 0, size, StandardCharsets.UTF_8);
        }

        String take() {
            String text = new String(data, 0, size, StandardCharsets.UTF_8);
            size = 0;
            return text;
        }
    }
}
