package dev.agentd.server.auth;

import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.KnownSecrets;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.state.StateConfig;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves configured key and header values (SPEC §2): {@code !command} runs the command with
 * {@code sh -c} and takes its trimmed stdout, which must be one line; the name of an environment
 * variable yields its value, anything else is the literal. A command runs on a worker thread of
 * its own; its limit (10 s) covers the whole command, from start to exit, and at the limit its
 * process tree is killed. A success is cached for the process. A failure is cached only for a
 * back-off ({@link CommandBackoff}: 5 s after the first, doubling to 5 min), then the next use runs
 * the command again: a dismissed unlock dialog or an offline vault must not need a restart. The
 * failure names its cause (timed out, exit status, printed nothing or several lines), never the
 * output or stderr, which may hold the key. A caller waits for the outcome at most until the limit,
 * or until its run is cancelled. A command still running when the daemon exits is killed with its
 * tree (it would otherwise outlive us, polling a password manager forever). The command keeps the
 * user's environment (a password manager needs it) but not agentd's own secret,
 * {@code AGENTD_STATE_URL}. Neither a value nor a command line is ever logged: commands may embed
 * secrets. Every resolved value is added to {@link KnownSecrets}, so any echo of it is redacted.
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

    /** A value, or why there is none: a sentence naming what was configured and what went wrong. */
    public sealed interface Resolution {
        record Found(String value) implements Resolution {}

        record Failed(String problem) implements Resolution {}

        default Optional<String> found() {
            return this instanceof Found found ? Optional.of(found.value()) : Optional.empty();
        }
    }

    /** One run of a command: its value, or its failure with the monotonic time it failed at. */
    sealed interface Outcome {
        record Value(String value) implements Outcome {}

        record Failure(String cause, long atMs) implements Outcome {}

        /** Only a waiter's: its run was cancelled, the command goes on. Never cached. */
        record Cancelled() implements Outcome {}
    }

    /** A command's latest run; {@code failuresBefore} counts the failed runs just before it. */
    private record Run(CompletableFuture<Outcome> outcome, int failuresBefore) {}

    private final Map<String, String> env;
    private final Scheduler scheduler;
    private final long limitMs;
    private final Map<String, Run> commands = new ConcurrentHashMap<>();
    private final ExecutorService workers = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "agentd-secret-command");
        thread.setDaemon(true);
        return thread;
    });

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
        return attempt(spec, purpose, cancel).found();
    }

    /**
     * The resolved value, or why there is none ({@code purpose} names what is resolved, e.g.
     * "adv's key (auth.json credential 1)", and starts the problem's sentence).
     */
    public Resolution attempt(String spec, String purpose, CancellationToken cancel) {
        if (spec == null || spec.isBlank()) {
            return new Resolution.Failed("No value is configured for " + purpose + ".");
        }
        if (!spec.startsWith("!")) {
            String fromEnv = env.get(spec);
            String value = fromEnv != null && !fromEnv.isBlank() ? fromEnv : spec;
            KnownSecrets.add(value);
            return new Resolution.Found(value);
        }
        Outcome outcome = await(command(spec, purpose), cancel);
        if (outcome instanceof Outcome.Value value) {
            return new Resolution.Found(value.value());
        }
        if (outcome instanceof Outcome.Cancelled) {
            return new Resolution.Failed("Cancelled while waiting for the command for " + purpose + ".");
        }
        if (!(outcome instanceof Outcome.Failure failure)) {
            throw new IllegalStateException("unhandled command outcome: " + outcome);
        }
        long retryInMs = Math.max(0, failure.atMs() + backoffOf(spec) - scheduler.monotonicMs());
        return new Resolution.Failed("The command for " + purpose + " " + failure.cause() + "; it runs again "
                + (retryInMs == 0 ? "on the next request" : "on the first request after " + seconds(retryInMs))
                + ".");
    }

    /** The value of an environment variable, if set and non-blank. */
    public Optional<String> env(String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    /**
     * The outcome of {@code spec}'s command: started on first use and shared by every later
     * caller; after a failure, started again by the first use once its back-off has passed.
     */
    CompletableFuture<Outcome> command(String spec, String purpose) {
        Run[] started = {null};
        Run run = commands.compute(spec, (key, last) -> {
            if (last != null && !due(last)) {
                return last;
            }
            started[0] = new Run(new CompletableFuture<>(), last == null ? 0 : last.failuresBefore() + 1);
            return started[0];
        });
        if (started[0] != null) {
            workers.execute(() -> run(spec.substring(1), purpose, started[0].outcome()));
        }
        return run.outcome();
    }

    /** Whether {@code last} failed and its back-off is over: the command is to run again. */
    private boolean due(Run last) {
        Outcome outcome = last.outcome().getNow(null);
        return outcome instanceof Outcome.Failure failure
                && scheduler.monotonicMs() - failure.atMs() >= CommandBackoff.afterFailures(last.failuresBefore() + 1);
    }

    private long backoffOf(String spec) {
        Run run = commands.get(spec);
        return CommandBackoff.afterFailures(run == null ? 1 : run.failuresBefore() + 1);
    }

    private static Outcome await(CompletableFuture<Outcome> outcome, CancellationToken cancel) {
        CompletableFuture<Outcome> waiting = new CompletableFuture<>();
        outcome.thenAccept(waiting::complete);
        Runnable unregister = cancel.onCancel(() -> waiting.complete(new Outcome.Cancelled()));
        try {
            return waiting.join();
        } finally {
            unregister.run();
        }
    }

    /** Runs on a worker; {@code outcome} is completed exactly once, at the latest by the limit. */
    private void run(String command, String purpose, CompletableFuture<Outcome> outcome) {
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder("sh", "-c", command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().remove(StateConfig.ENV_URL); // agentd's own secret, of no use to a key command
            process = builder.start();
        } catch (IOException | RuntimeException e) {
            fail(outcome, purpose, "could not be started");
            return;
        }
        RUNNING.add(process);
        try {
            supervise(process, purpose, outcome);
        } finally {
            RUNNING.remove(process);
        }
    }

    private void supervise(Process process, String purpose, CompletableFuture<Outcome> outcome) {
        Scheduler.Cancellable limit;
        try {
            limit = scheduler.schedule(limitMs, () -> {
                fail(outcome, purpose, "timed out after " + seconds(limitMs));
                killTree(process);
            });
        } catch (RuntimeException e) { // the scheduler is closed: the daemon is stopping
            killTree(process);
            fail(outcome, purpose, "was not run: agentd is stopping");
            return;
        }
        try (InputStream stdout = process.getInputStream()) {
            byte[] out = stdout.readNBytes(MAX_OUTPUT_BYTES + 1);
            if (out.length > MAX_OUTPUT_BYTES) {
                killTree(process);
                fail(outcome, purpose, "printed more than " + MAX_OUTPUT_BYTES / 1024 + " KiB (expected one line: "
                        + "the value)");
                return;
            }
            int code = process.waitFor(); // the kill at the limit ends this wait too
            limit.cancel();
            if (code != 0) {
                // Not its stderr: a failing command may print the key there.
                fail(outcome, purpose, "exited with status " + code);
                return;
            }
            String value = new String(out, StandardCharsets.UTF_8).trim();
            if (value.isEmpty()) {
                fail(outcome, purpose, "printed nothing (expected one line: the value)");
            } else if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
                fail(outcome, purpose, "printed several lines (expected one line: the value)");
            } else {
                KnownSecrets.add(value);
                outcome.complete(new Outcome.Value(value));
            }
        } catch (IOException e) {
            fail(outcome, purpose, "could not be read");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killTree(process);
            fail(outcome, purpose, "was interrupted");
        }
    }

    /** Completes {@code outcome} with a failure (logged once, without output or command line) unless done. */
    private void fail(CompletableFuture<Outcome> outcome, String purpose, String cause) {
        if (outcome.complete(new Outcome.Failure(cause, scheduler.monotonicMs()))) {
            LOG.warn("the command for {} {}", purpose, cause);
        }
    }

    /** "10 s", or milliseconds below a second. */
    private static String seconds(long ms) {
        return ms < 1000 ? ms + " ms" : (ms + 500) / 1000 + " s";
    }

    /** Descendants are listed before the shell dies: afterwards they are no longer its descendants. */
    private static void killTree(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }
}
