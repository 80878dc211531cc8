package dev.agentd.server.session;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.BashExecution;
import dev.agentd.server.tools.BashExecutor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The RPC {@code bash} command (SPEC §3.2): runs a shell command at once, even while the
 * agent streams, on its own thread; {@code abort_bash} kills it with its whole process tree. Each
 * finished command is handed over as a {@code bashExecution} message for the next prompt's context.
 */
final class UserBash implements AutoCloseable {
    private final BashExecutor executor = new BashExecutor();
    private final Path cwd;
    private final LongSupplier clock;
    /** Finished commands waiting to enter the context (before the next prompt). */
    private final ConcurrentLinkedQueue<AgentMessage.BashExecution> finished = new ConcurrentLinkedQueue<>();
    private final Runnable onFinished;
    private final Set<CancellationToken> running = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "agentd-user-bash");
        thread.setDaemon(true);
        return thread;
    });

    /** @param onFinished a command finished: its message waits in {@link #drain} */
    UserBash(Path cwd, LongSupplier clock, Runnable onFinished) {
        this.cwd = cwd;
        this.clock = clock;
        this.onFinished = onFinished;
    }

    /** Hands every finished command's message to {@code sink}, oldest first. */
    void drain(Consumer<AgentMessage.BashExecution> sink) {
        AgentMessage.BashExecution message;
        while ((message = finished.poll()) != null) {
            sink.accept(message);
        }
    }

    CompletableFuture<Results.Bash> run(String command) {
        return run(command, null);
    }

    /**
     * @param onStreamed receives the output while the command runs, in pieces, on the command's
     *     thread (bounded: {@link BashExecutor#run(String, Path, java.time.Duration, CancellationToken,
     *     Consumer, Consumer)}); null streams nothing
     */
    CompletableFuture<Results.Bash> run(String command, Consumer<String> onStreamed) {
        if (command == null || command.isBlank()) {
            throw new IllegalArgumentException("Command must not be empty");
        }
        CancellationToken token = new CancellationToken();
        running.add(token);
        return CompletableFuture.supplyAsync(() -> {
            BashExecution result;
            try {
                result = executor.run(command, cwd, null, token, null, onStreamed);
            } catch (IOException e) {
                throw new CompletionException(new IllegalStateException("Cannot run bash: " + e.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CompletionException(new IllegalStateException("bash was interrupted"));
            } finally {
                running.remove(token);
            }
            String fullOutput = result.fullOutputPath() == null ? null : result.fullOutputPath().toString();
            finished.add(new AgentMessage.BashExecution(command, result.output(), result.exitCode(),
                    result.cancelled(), result.truncated(), fullOutput, null, clock.getAsLong()));
            onFinished.run();
            return new Results.Bash(result.output(), result.exitCode(), result.cancelled(), result.truncated(),
                    fullOutput);
        }, threads);
    }

    /** Kills every running command (their responses report {@code cancelled:true}). */
    void abortAll() {
        running.forEach(CancellationToken::cancel);
    }

    @Override
    public void close() {
        abortAll();
        threads.shutdown();
    }
}
