package dev.agentd.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlReader;
import dev.agentd.protocol.jsonl.JsonlWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The byte-level connection to one daemon: a spawned process or an attached stream pair. Owns the
 * reader thread (strict JSONL over the daemon's stdout), the stderr drain and the shutdown
 * sequence; knows nothing about commands or events.
 */
final class Transport {

    /** Receives what the reader thread reads. Called on the reader thread; must not block long. */
    interface Sink {
        void onLine(byte[] line);

        void onOversizedLine(long length);

        /** The daemon's output ended while the client was not closing. Called at most once. */
        void onEnd(RpcException reason);
    }

    private final Process process; // null in attach mode
    private final InputStream fromDaemon;
    private final OutputStream toDaemon;
    private final JsonlWriter writer;
    private final Duration closeTimeout;
    private final StderrTail stderr = new StderrTail(StderrTail.DEFAULT_CAPACITY);
    private final AtomicBoolean endReported = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean closing;
    private Thread reader;
    private Thread stderrDrain;
    private Thread exitWatch;

    private Transport(Process process, InputStream fromDaemon, OutputStream toDaemon, Duration closeTimeout) {
        this.process = process;
        this.fromDaemon = fromDaemon;
        this.toDaemon = toDaemon;
        this.writer = new JsonlWriter(toDaemon, Json.mapper());
        this.closeTimeout = closeTimeout;
    }

    static Transport spawn(List<String> command, Map<String, String> env, Path cwd, Duration closeTimeout) {
        ProcessBuilder builder = new ProcessBuilder(command);
        if (cwd != null) {
            builder.directory(cwd.toFile());
        }
        env.forEach((key, value) -> {
            if (value == null) {
                builder.environment().remove(key);
            } else {
                builder.environment().put(key, value);
            }
        });
        try {
            Process process = builder.start();
            return new Transport(process, process.getInputStream(), process.getOutputStream(), closeTimeout);
        } catch (IOException e) {
            throw new RpcException("Cannot start daemon " + command + ": " + e.getMessage(), null, null, null, e);
        }
    }

    static Transport attach(InputStream fromDaemon, OutputStream toDaemon, Duration closeTimeout) {
        return new Transport(null, fromDaemon, toDaemon, closeTimeout);
    }

    void start(Sink sink) {
        reader = daemonThread("agentd-client-reader", () -> readLoop(sink));
        if (process != null) {
            stderrDrain = daemonThread("agentd-client-stderr", () -> stderr.drain(process.getErrorStream()));
            exitWatch = daemonThread("agentd-client-exit", () -> watchExit(sink));
            stderrDrain.start();
        }
        reader.start();
        if (exitWatch != null) {
            exitWatch.start();
        }
    }

    /** Writes one record as one line (thread-safe; records never interleave). */
    void write(JsonNode record) throws IOException {
        writer.write(record);
    }

    String stderr() {
        return stderr.text();
    }

    OptionalLong pid() {
        return process == null ? OptionalLong.empty() : OptionalLong.of(process.pid());
    }

    boolean onReaderThread() {
        return Thread.currentThread() == reader;
    }

    private void readLoop(Sink sink) {
        IOException failure = null;
        try {
            JsonlReader lines = new JsonlReader(fromDaemon);
            for (JsonlReader.Line line; (line = lines.next()) != null; ) {
                if (line instanceof JsonlReader.Line.Text text) {
                    sink.onLine(text.bytes());
                } else if (line instanceof JsonlReader.Line.TooLong tooLong) {
                    sink.onOversizedLine(tooLong.length());
                } else {
                    throw new IllegalStateException("unhandled line: " + line);
                }
            }
        } catch (IOException e) {
            failure = e;
        }
        reportEnd(sink, failure);
    }

    /** A child that inherited the daemon's stdout can keep it open after the daemon died. */
    private void watchExit(Sink sink) {
        try {
            process.waitFor();
            if (!join(reader, closeTimeout)) {
                reportEnd(sink, null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void reportEnd(Sink sink, IOException cause) {
        if (!closing && endReported.compareAndSet(false, true)) {
            sink.onEnd(endReason(cause));
        }
    }

    /** Why the connection is gone: exit code (waited for up to closeTimeout) and stderr tail. */
    RpcException endReason(Throwable cause) {
        String what;
        if (process == null) {
            what = "Daemon stream closed" + (cause == null ? "" : ": " + cause.getMessage());
        } else {
            boolean exited = waitFor(process, closeTimeout);
            join(stderrDrain, closeTimeout);
            what = exited ? "Daemon exited with code " + process.exitValue()
                    : "Daemon (pid " + process.pid() + ") closed its output but is still running";
        }
        String tail = stderr();
        return new RpcException(what + RpcException.stderrSuffix(tail), null, null, tail, cause);
    }

    /**
     * Spawn mode: EOF on stdin (the daemon then exits 0), wait, destroy, destroy forcibly, then
     * the descendants collected before the daemon could exit. Attach mode: close our output.
     * Either way the reader threads are joined, each wait bounded by closeTimeout. Idempotent.
     */
    void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closing = true;
        if (process == null) {
            closeQuietly(toDaemon);
            stopReader();
            return;
        }
        List<ProcessHandle> family = ProcessFamily.descendants(process.toHandle());
        closeQuietly(toDaemon);
        if (!waitFor(process, closeTimeout)) {
            family = ProcessFamily.union(family, ProcessFamily.descendants(process.toHandle()));
            process.destroy();
            if (!waitFor(process, closeTimeout)) {
                process.destroyForcibly();
                waitFor(process, closeTimeout);
            }
        }
        ProcessFamily.destroy(family, closeTimeout);
        if (exitWatch != null) {
            exitWatch.interrupt();
        }
        stopReader();
        if (!join(stderrDrain, closeTimeout)) {
            closeQuietly(process.getErrorStream());
        }
    }

    private void stopReader() {
        if (reader == null || onReaderThread()) {
            return; // closed from a listener: the reader ends by itself after the listener returns
        }
        if (!join(reader, closeTimeout)) {
            // The peer never closed its side: unblock our reader ourselves.
            closeQuietly(fromDaemon);
            reader.interrupt();
        }
    }

    private static boolean waitFor(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** Joins up to {@code timeout}; true when the thread has ended (or never existed). */
    private static boolean join(Thread thread, Duration timeout) {
        if (thread == null) {
            return true;
        }
        try {
            thread.join(Math.max(1, timeout.toMillis())); // join(0) would wait forever
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException | RuntimeException e) {
            // Already broken: nothing left to release.
        }
    }

    private static Thread daemonThread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
