package dev.agentd.server.auth;

import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.Scheduler;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves configured key and header values (SPEC §2): {@code !command} runs the command with
 * {@code sh -c} and takes its trimmed stdout, the name of an environment variable yields its
 * value, anything else is the literal. A command runs once per process, on a worker thread of its
 * own; its limit (10 s) covers the whole command, from start to exit, and at the limit its process
 * tree is killed. Its outcome, a failure included, is cached for the process. A caller waits for
 * the outcome at most until the limit, or until its run is cancelled. A command still running
 * when the daemon exits is killed with its tree (it would otherwise outlive us, polling a password
 * manager forever). Neither a value nor a command line is ever logged: commands may embed secrets.
 */
public final class SecretResolver {
    private static final Logger LOG = LoggerFactory.getLogger(SecretResolver.class);
    public static final long COMMAND_LIMIT_MS = 10_000;
    /** More output than any key: a command that prints more is broken, not a key source. */
    private static final int MAX_OUTPUT_BYTES = 64 * 1024;
    /** Commands still running, of every resolver in the process; killed at exit. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(SecretResolver::killTree),
                "agentd-secret-reaper"));
    }

    private final Map<String, String> env;
    private final Scheduler scheduler;
    private final long limitMs;
    private final Map<String, CompletableFuture<Optional<String>>> commands = new ConcurrentHashMap<>();
    private final ExecutorService workers = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "agentd-secret-command");
        thread.setDaemon(true);
        return thread;
    });

    /** With real time (tests that run no slow command). */
    public SecretResolver(Map<String, String> env) {
        this(env, RealTime.INSTANCE, COMMAND_LIMIT_MS);
    }

    public SecretResolver(Map<String, String> env, Scheduler scheduler, long limitMs) {
        this.env = Map.copyOf(env);
        this.scheduler = scheduler;
        this.limitMs = limitMs;
    }

    /** The resolved value, empty if the spec is blank or its command failed. */
    public Optional<String> resolve(String spec, String purpose) {
        return resolve(spec, purpose, CancellationToken.none());
    }

    /** As {@link #resolve(String, String)}; a cancelled wait for a command yields empty at once. */
    public Optional<String> resolve(String spec, String purpose, CancellationToken cancel) {
        if (spec == null || spec.isBlank()) {
            return Optional.empty();
        }
        if (spec.startsWith("!")) {
            return await(command(spec, purpose), cancel);
        }
        String fromEnv = env.get(spec);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Optional.of(fromEnv);
        }
        return Optional.of(spec);
    }

    /** The value of an environment variable, if set and non-blank. */
    public Optional<String> env(String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    /** The outcome of {@code spec}'s command: started on first use, shared by every later caller. */
    CompletableFuture<Optional<String>> command(String spec, String purpose) {
        CompletableFuture<Optional<String>> existing = commands.get(spec);
        if (existing != null) {
            return existing;
        }
        CompletableFuture<Optional<String>> outcome = new CompletableFuture<>();
        existing = commands.putIfAbsent(spec, outcome);
        if (existing != null) {
            return existing;
        }
        workers.execute(() -> run(spec.substring(1), purpose, outcome));
        return outcome;
    }

    private static Optional<String> await(CompletableFuture<Optional<String>> outcome, CancellationToken cancel) {
        CompletableFuture<Optional<String>> waiting = new CompletableFuture<>();
        outcome.thenAccept(waiting::complete);
        Runnable unregister = cancel.onCancel(() -> waiting.complete(Optional.empty()));
        try {
            return waiting.join();
        } finally {
            unregister.run();
        }
    }

    /** Runs on a worker; {@code outcome} is completed exactly once, at the latest by the limit. */
    private void run(String command, String purpose, CompletableFuture<Optional<String>> outcome) {
        Process process;
        try {
            process = new ProcessBuilder("sh", "-c", command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException | RuntimeException e) {
            LOG.warn("the command configured for {} could not be started", purpose);
            outcome.complete(Optional.empty());
            return;
        }
        RUNNING.add(process);
        try {
            supervise(process, purpose, outcome);
        } finally {
            RUNNING.remove(process);
        }
    }

    private void supervise(Process process, String purpose, CompletableFuture<Optional<String>> outcome) {
        Scheduler.Cancellable limit;
        try {
            limit = scheduler.schedule(limitMs, () -> {
                if (outcome.complete(Optional.empty())) {
                    LOG.warn("the command configured for {} did not finish within {} ms; killed it", purpose,
                            limitMs);
                }
                killTree(process);
            });
        } catch (RuntimeException e) { // the scheduler is closed: the daemon is stopping
            killTree(process);
            outcome.complete(Optional.empty());
            return;
        }
        try (InputStream stdout = process.getInputStream()) {
            byte[] out = stdout.readNBytes(MAX_OUTPUT_BYTES + 1);
            if (out.length > MAX_OUTPUT_BYTES) {
                killTree(process);
                if (outcome.complete(Optional.empty())) {
                    LOG.warn("the command configured for {} printed more than {} bytes", purpose, MAX_OUTPUT_BYTES);
                }
                return;
            }
            int code = process.waitFor(); // the kill at the limit ends this wait too
            limit.cancel();
            if (code != 0) {
                if (outcome.complete(Optional.empty())) {
                    LOG.warn("the command configured for {} exited with code {}", purpose, code);
                }
                return;
            }
            String value = new String(out, StandardCharsets.UTF_8).trim();
            outcome.complete(value.isEmpty() ? Optional.empty() : Optional.of(value));
        } catch (IOException e) {
            outcome.complete(Optional.empty());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killTree(process);
            outcome.complete(Optional.empty());
        }
    }

    /** Descendants are listed before the shell dies: afterwards they are no longer its descendants. */
    private static void killTree(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    /** Real time for the constructor that takes none; the timers run on the common pool's delayer. */
    private enum RealTime implements Scheduler {
        INSTANCE;

        @Override
        public long now() {
            return System.currentTimeMillis();
        }

        @Override
        public long monotonicMs() {
            return System.nanoTime() / 1_000_000;
        }

        @Override
        public Cancellable schedule(long delayMs, Runnable task) {
            CompletableFuture<Void> timer = new CompletableFuture<>();
            CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS).execute(() -> timer.complete(null));
            timer.thenRun(task);
            return () -> timer.cancel(false);
        }
    }
}
