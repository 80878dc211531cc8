package dev.agentd.server.tools;

import dev.agentd.server.runtime.CancellationToken;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one shell command the way both the {@code bash} tool and the RPC {@code bash} command need:
 * {@code bash -c} (else {@code sh -c}) in the cwd, stdin from /dev/null, stdout and stderr merged
 * in arrival order, in its own process group (via {@code setsid} when available) so that a
 * timeout or cancellation kills the whole tree, background jobs included. Output is reported while
 * it arrives (throttled) and its tail is kept within the {@link Truncation} budget, the complete
 * output going to a temp file when it does not fit.
 *
 * <p>Tools stay out of the protocol's lane: the command's stdin is /dev/null and its stdout a pipe
 * to us; it runs under an intermediate shell, so {@code $PPID} is that shell (whose stdout is our
 * pipe) rather than the daemon, and {@code > /proc/$PPID/fd/1} lands in the tool output. The
 * environment has no credentials ({@link ToolEnvironment}). Limit: a command that looks up the
 * daemon's pid itself can still open its descriptors through /proc; only running tools as another
 * user or in another namespace prevents that.
 *
 * <p>When the command ends normally but a background job it started still holds the output pipe,
 * the result is returned after a short drain and the job is left running (users start servers
 * with {@code &}); its further output is discarded.
 */
public final class BashExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(BashExecutor.class);
    static final long UPDATE_INTERVAL_MS = 100;
    static final long DRAIN_AFTER_EXIT_MS = 250;
    static final Duration KILL_GRACE = Duration.ofMillis(500);
    /** Upper bound of one wait, so a missed wake-up can never stall the loop for long. */
    private static final long MAX_WAIT_MS = 1000;
    /** Longer timeouts mean "none": nanosecond arithmetic would overflow (about 292 years). */
    static final Duration MAX_TIMEOUT = Duration.ofDays(365L * 100);

    private final String shell;
    private final String setsid;

    public BashExecutor() {
        this(findShell(), findSetsid());
    }

    /** @param setsid path of the setsid binary, or null to run without an own process group */
    BashExecutor(String shell, String setsid) {
        this.shell = shell;
        this.setsid = setsid;
    }

    /**
     * Runs {@code command} to completion, timeout or cancellation.
     *
     * @param timeout null for none
     * @param onOutput receives the (tail-truncated) output accumulated so far, while the command runs;
     *     at most every {@value #UPDATE_INTERVAL_MS} ms, called on the calling thread
     * @throws IOException when the shell cannot be started
     * @throws InterruptedException when the calling thread is interrupted (the tree is killed first)
     */
    public BashExecution run(String command, Path cwd, Duration timeout, CancellationToken cancel,
            Consumer<String> onOutput) throws IOException, InterruptedException {
        return run(command, cwd, timeout, cancel, onOutput, null);
    }

    /**
     * As above, also streaming the output itself: {@code onStreamed} receives each new piece, in
     * order, on the calling thread (throttled like {@code onOutput}, the rest once the command
     * ended), up to {@link OutputBuffer#STREAM_MAX_BYTES} in all; null streams nothing.
     */
    public BashExecution run(String command, Path cwd, Duration timeout, CancellationToken cancel,
            Consumer<String> onOutput, Consumer<String> onStreamed) throws IOException, InterruptedException {
        CancellationToken token = cancel == null ? CancellationToken.none() : cancel;
        Consumer<String> onTail = onOutput == null ? s -> {} : onOutput;
        if (token.isCancelled()) {
            return new BashExecution("", null, true, false, false, null, Truncation.tail(""));
        }
        if (!Files.isDirectory(cwd)) {
            throw new IOException("Working directory does not exist: " + cwd);
        }
        List<String> argv = new ArrayList<>();
        if (setsid != null) {
            argv.add(setsid);
        }
        // The outer shell stays as the command's parent ("; exit" prevents its exec optimisation).
        argv.addAll(List.of(shell, "-c", "\"$0\" -c \"$1\"; exit $?", shell, command));
        ProcessBuilder builder = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        ToolEnvironment.strip(builder.environment());
        String marker = ProcessTree.newMarker();
        builder.environment().put(ProcessTree.MARKER_VARIABLE, marker);
        Process process = builder.start();
        ProcessTree tree = new ProcessTree(process, setsid != null, marker);
        tree.track();
        Wakeup wakeup = new Wakeup();
        process.onExit().thenRun(wakeup::poke);
        Runnable unregister = token.onCancel(wakeup::poke);
        OutputBuffer buffer = new OutputBuffer(onStreamed != null);
        // The streamed pieces go out where the tail does: on this thread, at the same pace.
        Consumer<String> sink = onStreamed == null ? onTail : onTail.andThen(ignored -> stream(buffer, onStreamed));
        try {
            Thread reader = startReader(process, buffer, wakeup);
            Ending ending;
            try {
                ending = await(process, reader, buffer, token, timeout, wakeup, sink);
            } catch (InterruptedException | RuntimeException | Error e) {
                tree.terminate(KILL_GRACE);
                throw e;
            }
            if (ending != Ending.EXITED) {
                tree.terminate(KILL_GRACE);
                reader.join(KILL_GRACE.toMillis());
            }
            if (onStreamed != null) {
                stream(buffer, onStreamed); // what arrived after the last update
            }
            buffer.close(); // flushes the full-output file before it is handed out
            Truncation.Result tail = buffer.tail();
            Path fullOutput = buffer.fullOutputPath();
            if (fullOutput != null && !tail.truncated()) {
                deleteQuietly(fullOutput);
                fullOutput = null;
            }
            Integer exitCode = ending == Ending.EXITED ? process.exitValue() : null;
            return new BashExecution(tail.content(), exitCode, ending == Ending.CANCELLED,
                    ending == Ending.TIMED_OUT, tail.truncated(), fullOutput, tail);
        } finally {
            buffer.close();
            unregister.run();
            tree.release();
        }
    }

    private enum Ending { EXITED, CANCELLED, TIMED_OUT }

    private Ending await(Process process, Thread reader, OutputBuffer buffer, CancellationToken cancel,
            Duration timeout, Wakeup wakeup, Consumer<String> sink) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = timeout == null || timeout.compareTo(MAX_TIMEOUT) >= 0 ? Long.MAX_VALUE
                : start + timeout.toNanos();
        long emittedVersion = 0;
        long lastEmit = 0;
        boolean emitted = false;
        long exitedAt = 0;
        boolean exited = false;
        while (true) {
            if (cancel.isCancelled()) {
                return Ending.CANCELLED;
            }
            long now = System.nanoTime();
            if (now >= deadline) {
                return Ending.TIMED_OUT;
            }
            if (!process.isAlive()) {
                if (!exited) {
                    exited = true;
                    exitedAt = now;
                }
                // The pipe closes when the last holder exits; a background job may hold it longer.
                if (!reader.isAlive() || now - exitedAt >= TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MS)) {
                    return Ending.EXITED;
                }
            }
            long waitMs = MAX_WAIT_MS;
            long version = buffer.version();
            if (version != emittedVersion && !exited) {
                long sinceMs = emitted ? TimeUnit.NANOSECONDS.toMillis(now - lastEmit) : Long.MAX_VALUE;
                if (sinceMs >= UPDATE_INTERVAL_MS) {
                    sink.accept(buffer.tail().content());
                    emittedVersion = version;
                    lastEmit = now;
                    emitted = true;
                    continue;
                }
                waitMs = Math.min(waitMs, UPDATE_INTERVAL_MS - sinceMs);
            }
            if (deadline != Long.MAX_VALUE) {
                waitMs = Math.min(waitMs, TimeUnit.NANOSECONDS.toMillis(deadline - now) + 1);
            }
            if (exited) {
                waitMs = Math.min(waitMs, DRAIN_AFTER_EXIT_MS - TimeUnit.NANOSECONDS.toMillis(now - exitedAt) + 1);
            }
            wakeup.await(Math.max(1, waitMs));
        }
    }

    private static void stream(OutputBuffer buffer, Consumer<String> onStreamed) {
        String piece = buffer.takeStreamed();
        if (!piece.isEmpty()) {
            onStreamed.accept(piece);
        }
    }

    private static Thread startReader(Process process, OutputBuffer buffer, Wakeup wakeup) {
        Thread reader = new Thread(() -> {
            char[] chunk = new char[8192];
            try (Reader in = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
                int n;
                while ((n = in.read(chunk)) != -1) {
                    buffer.append(chunk, 0, n);
                    wakeup.poke();
                }
            } catch (IOException e) {
                LOG.debug("command output closed: {}", e.getMessage());
            } finally {
                wakeup.poke();
            }
        }, "agentd-bash-output");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.debug("could not delete {}: {}", file, e.getMessage());
        }
    }

    static String findShell() {
        for (String candidate : List.of("/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "bash"))) {
                    return Path.of(dir, "bash").toString();
                }
            }
        }
        return "sh";
    }

    static String findSetsid() {
        for (String candidate : List.of("/usr/bin/setsid", "/bin/setsid")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        return null;
    }

    /** A level-triggered wake-up: pokes between waits are not lost. */
    private static final class Wakeup {
        private boolean poked;

        synchronized void poke() {
            poked = true;
            notifyAll();
        }

        synchronized void await(long millis) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (!poked) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            poked = false;
        }
    }
}
