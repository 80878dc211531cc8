package dev.agentd.server.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import dev.agentd.server.tools.ProcessTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * An MCP server as a child process speaking line-delimited JSON-RPC, owned by agentd rather than
 * the SDK's stdio transport because three things matter here that it does not do: the server's
 * environment is the small base set plus what its entry names (never agentd's provider keys);
 * stopping it stops everything it started ({@link ProcessTree}: its process group, its
 * descendants, and processes carrying its marker), within a bounded grace; and a hostile stdout is
 * survivable (a line over {@link #MAX_LINE_BYTES} ends the connection with that reason, a
 * non-JSON line is skipped, {@link #MAX_BAD_LINES} of them end it). Writes happen on a thread of
 * their own, so a server that stops reading blocks no tool thread. Its stderr is kept as the last
 * few lines, for the error that reports its death.
 */
final class StdioTransport implements McpClientTransport {
    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;
    static final int MAX_BAD_LINES = 100;
    private static final int STDERR_LINES = 8;
    private static final int STDERR_LINE_CHARS = 300;
    private static final Duration STOP_GRACE = Duration.ofSeconds(2);
    /** What every server inherits from agentd's environment, as the MCP reference clients do. */
    static final List<String> BASE_ENV = List.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG",
            "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ", "SYSTEMROOT", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE");

    private final String server;
    private final McpServerSpec.Stdio spec;
    private final McpJsonMapper json;
    private final Consumer<String> onClosed;
    private final ExecutorService writer;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private volatile Process process;
    private volatile ProcessTree tree;
    private volatile Thread stderrReader;
    private final java.util.concurrent.CompletableFuture<Process> started = new java.util.concurrent.CompletableFuture<>();
    private static final Duration STARTUP_LIMIT = Duration.ofSeconds(30);

    /** @param onClosed told once, with a one-line reason, when the server's stdout ends or is refused */
    StdioTransport(String server, McpServerSpec.Stdio spec, McpJsonMapper json, Consumer<String> onClosed) {
        this.server = server;
        this.spec = spec;
        this.json = json;
        this.onClosed = onClosed;
        this.writer = Executors.newSingleThreadExecutor(task -> daemon(task, "agentd-mcp-" + server + "-writer"));
    }

    /** The environment a server starts with: the base variables agentd has, then the entry's own. */
    static Map<String, String> environment(Map<String, String> agentd, Map<String, String> configured) {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        for (String name : BASE_ENV) {
            String value = agentd.get(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        env.putAll(configured);
        return env;
    }

    /**
     * Fails with a clear sentence when {@code command} is not an executable file (a path) or not
     * found on {@code path}: started through setsid, a missing command would only show as an exit.
     */
    static void requireExecutable(String command, String path, java.nio.file.Path cwd) {
        if (command.contains("/")) {
            java.nio.file.Path file = cwd.resolve(command);
            if (!java.nio.file.Files.isExecutable(file)) {
                throw new IllegalStateException("cannot start '" + McpConfig.printable(command)
                        + "': no executable file there");
            }
            return;
        }
        for (String dir : (path == null ? "" : path).split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) {
                return;
            }
        }
        throw new IllegalStateException("cannot start '" + McpConfig.printable(command) + "': not found on the PATH");
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.<Void>fromRunnable(() -> {
            Map<String, String> env = environment(System.getenv(), spec.env());
            requireExecutable(spec.command(), env.get("PATH"), spec.cwd());
            List<String> command = new ArrayList<>();
            String setsid = ProcessTree.setsid();
            if (setsid != null) {
                command.add(setsid);
            }
            command.add(spec.command());
            command.addAll(spec.args());
            ProcessBuilder builder = new ProcessBuilder(command).directory(spec.cwd().toFile());
            builder.environment().clear();
            builder.environment().putAll(env);
            String marker = ProcessTree.newMarker();
            builder.environment().put(ProcessTree.MARKER_VARIABLE, marker);
            try {
                process = builder.start();
            } catch (IOException e) {
                started.completeExceptionally(e);
                throw new IllegalStateException("cannot start '" + McpConfig.printable(spec.command()) + "': "
                        + e.getMessage(), e);
            }
            started.complete(process);
            tree = new ProcessTree(process, setsid != null, marker);
            tree.track();
            daemon(() -> readStdout(process.getInputStream(), handler), "agentd-mcp-" + server + "-stdout").start();
            stderrReader = daemon(() -> readStderr(process.getErrorStream()), "agentd-mcp-" + server + "-stderr");
            stderrReader.start();
        }).subscribeOn(Schedulers.boundedElastic());
    }

    private void readStdout(InputStream in, Function<Mono<McpSchema.JSONRPCMessage>,
            Mono<McpSchema.JSONRPCMessage>> handler) {
        String reason = "the server closed its stdout";
        int badLines = 0;
        try (in) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int read;
            while ((read = in.read(buffer)) != -1) {
                for (int i = 0; i < read; i++) {
                    byte b = buffer[i];
                    if (b != '\n') {
                        if (line.size() >= MAX_LINE_BYTES) {
                            reason = "the server sent a message over " + MAX_LINE_BYTES / (1024 * 1024) + " MB";
                            return;
                        }
                        line.write(b);
                        continue;
                    }
                    String text = line.toString(StandardCharsets.UTF_8).strip();
                    line.reset();
                    if (text.isEmpty()) {
                        continue;
                    }
                    McpSchema.JSONRPCMessage message;
                    try {
                        message = McpSchema.deserializeJsonRpcMessage(json, text);
                    } catch (IOException | RuntimeException e) {
                        if (++badLines >= MAX_BAD_LINES) {
                            reason = "the server wrote " + MAX_BAD_LINES + " lines that are not JSON-RPC to stdout";
                            return;
                        }
                        LOG.warn("MCP server '{}' wrote a line that is not JSON-RPC; skipped ({} characters)",
                                server, text.length());
                        continue;
                    }
                    try {
                        handler.apply(Mono.just(message)).subscribe(ignored -> {}, e -> LOG.debug(
                                "MCP server '{}': a message could not be handled: {}", server, e.toString()));
                    } catch (RuntimeException e) {
                        LOG.debug("MCP server '{}': a message could not be handled: {}", server, e.toString());
                    }
                }
            }
        } catch (IOException e) {
            reason = "reading the server's stdout failed: " + e.getMessage();
        } finally {
            finish(reason);
        }
    }

    private void readStderr(InputStream err) {
        try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(err, StandardCharsets.UTF_8))) {
            // read() rather than readLine(): a line without end must not grow without bound.
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = reader.read()) != -1) {
                if (c == '\n') {
                    keep(line.toString());
                    line.setLength(0);
                } else if (line.length() < STDERR_LINE_CHARS) {
                    line.append((char) c);
                }
            }
            if (!line.isEmpty()) {
                keep(line.toString());
            }
        } catch (IOException e) {
            // the process is gone; its stdout reader reports that
        }
    }

    private void keep(String line) {
        String printable = McpConfig.printable(line.strip());
        LOG.debug("MCP server '{}' stderr: {}", server, printable);
        synchronized (stderrTail) {
            stderrTail.addLast(printable);
            while (stderrTail.size() > STDERR_LINES) {
                stderrTail.removeFirst();
            }
        }
    }

    /** The server's last stderr lines, joined, or empty. */
    String stderrTail() {
        synchronized (stderrTail) {
            return String.join(" | ", stderrTail);
        }
    }

    private void finish(String reason) {
        if (closing.get()) {
            return;
        }
        stop(); // a refused stream or a server that ended: nothing it started may stay behind
        Thread stderr = stderrReader;
        if (stderr != null) {
            try {
                stderr.join(STOP_GRACE.toMillis()); // its last words usually say why it ended
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String tail = stderrTail();
        onClosed.accept(reason + (tail.isEmpty() ? "" : "; its stderr ended with: " + tail));
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.<Void>fromRunnable(() -> {
            Process running;
            try {
                // The client may send initialize before connect's thread has started the process.
                running = started.get(STARTUP_LIMIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("MCP server '" + server + "' is not running");
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("MCP server '" + server + "' is not running");
            }
            if (closing.get()) {
                throw new IllegalStateException("MCP server '" + server + "' is not running");
            }
            try {
                byte[] bytes = (json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
                OutputStream out = running.getOutputStream();
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                throw new IllegalStateException("writing to MCP server '" + server + "' failed: " + e.getMessage(), e);
            }
        }).subscribeOn(Schedulers.fromExecutor(writer));
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.<Void>fromRunnable(this::stop).subscribeOn(Schedulers.boundedElastic());
    }

    /** Closes stdin, then SIGTERM to the tree and SIGKILL after the grace. Idempotent. */
    void stop() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        Process running = process;
        writer.shutdownNow();
        if (running == null) {
            return;
        }
        try {
            running.getOutputStream().close();
        } catch (IOException e) {
            // already closed by the server's exit
        }
        try {
            tree.terminate(STOP_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            tree.release();
        }
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return json.convertValue(data, typeRef);
    }

    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }
}
