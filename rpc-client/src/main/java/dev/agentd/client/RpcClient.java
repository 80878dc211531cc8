package dev.agentd.client;

import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.response.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Java client for one agentd daemon (SPEC §9): spawns it ({@link Builder#command}, {@link
 * Builder#jar}) or attaches to a stream pair ({@link Builder#streams}), sends typed commands
 * ({@link RpcCommands}), delivers typed events to listeners, and waits for runs in a retry-aware
 * way ({@link #promptAndWait}, {@link #waitForIdle}) on pi 1.6's wire (see the package documentation).
 *
 * <p>Listeners and {@code CompletableFuture} callbacks run on the client's reader thread, in wire
 * order; they must not block, and blocking client methods called there fail fast instead of
 * deadlocking. The client never writes to System.out or System.err.
 */
public final class RpcClient implements RpcCommands, AutoCloseable {
    private final ClientOptions options;
    private final WireDialect dialect;
    private final AtomicLong ids = new AtomicLong();
    private final PendingRequests pending = new PendingRequests();
    private final RunTracker tracker;
    private final Listeners<AgentEvent> eventListeners;
    private final Listeners<Response> responseListeners;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Transport transport;

    RpcClient(ClientOptions options) {
        this(options, RunTracker.onSystemNanoTime(options.retryGrace().toNanos()));
    }

    RpcClient(ClientOptions options, RunTracker tracker) {
        this.options = options;
        this.dialect = options.dialect().wire();
        this.tracker = tracker;
        this.eventListeners = new Listeners<>(options.onListenerError());
        this.responseListeners = new Listeners<>(options.onListenerError());
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Spawns (or attaches), starts the reader threads, sends {@code get_state} and returns once it
     * is answered. Throws {@link RpcException} with the exit code and stderr when the daemon exits
     * first, {@link RpcTimeoutException} after the start timeout; either way the client is closed.
     */
    public RpcClient start() {
        if (closed.get()) {
            throw new IllegalStateException("RpcClient is closed");
        }
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("RpcClient already started");
        }
        try {
            transport = options.attached()
                    ? Transport.attach(options.fromDaemon(), options.toDaemon(), options.closeTimeout())
                    : Transport.spawn(options.command(), options.env(), options.cwd(), options.closeTimeout());
        } catch (RpcException e) {
            close();
            throw e;
        }
        transport.start(new Dispatcher(dialect, pending, tracker, eventListeners, responseListeners,
                options.onProtocolError()));
        String id = nextId();
        try {
            awaitResponse(send(id, new Command.GetState()), id, "get_state", Deadlines.from(options.startTimeout()));
            return this;
        } catch (RpcTimeoutException e) {
            close();
            throw RpcTimeoutException.of("Daemon did not answer get_state within "
                    + Deadlines.format(options.startTimeout()), "get_state", e.stderr());
        } catch (RpcException e) {
            close();
            throw new RpcException("Daemon failed to start: " + e.getMessage(), "get_state", null, e.stderr(), e);
        }
    }

    // --- requests ----------------------------------------------------------------------------

    /** Sends a command; the future completes with its response (success or not) or fails when the connection does. */
    public CompletableFuture<Response> send(Command command) {
        return send(nextId(), command);
    }

    /** Like {@link #request(Command, Class)} without blocking; fails with RpcException on success:false. */
    public <T> CompletableFuture<T> requestAsync(Command command, Class<T> dataType) {
        return send(command).thenApply(response -> ResponseData.decode(response, dataType));
    }

    @Override
    public <T> T request(Command command, Class<T> dataType) {
        return request(command, dataType, options.requestTimeout());
    }

    /** {@link #request(Command, Class)} with its own timeout (e.g. for {@code compact} or {@code bash}). */
    public <T> T request(Command command, Class<T> dataType, Duration timeout) {
        requireNotReaderThread(command.type());
        String id = nextId();
        Response response = awaitResponse(send(id, command), id, command.type(), Deadlines.from(timeout));
        return ResponseData.decode(response, dataType);
    }

    // --- listeners ---------------------------------------------------------------------------

    /** Receives every event (unknown types as {@link AgentEvent.Unknown}); returns the unsubscribe action. */
    public Runnable addListener(Consumer<? super AgentEvent> listener) {
        return eventListeners.add(listener);
    }

    /** Receives responses no pending request claims: parse errors, answers after their caller gave up. */
    public Runnable addResponseListener(Consumer<? super Response> listener) {
        return responseListeners.add(listener);
    }

    // --- retry-aware waiting -----------------------------------------------------------------

    /** {@link #promptAndWait(String, List, StreamingBehavior, Duration)} without images or behavior. */
    public PromptResult promptAndWait(String message, Duration timeout) {
        return promptAndWait(message, null, null, timeout);
    }

    /**
     * Sends a prompt and waits until its logical run is over: its agent_settled, or (daemons before
     * pi 1.x's wire) the agent_end after which nothing continues or the auto_retry_end{success:false}
     * of a failed chain. The result holds every event, the disposition, and whether the prompt
     * succeeded and why not ({@link PromptResult#succeeded()}, {@link PromptResult#error()}): retries
     * that ran out return normally. Throws {@link PromptFailedException} when the prompt is answered
     * {@code success:false} (refused, or failed its preflight), {@link RpcTimeoutException} after {@code timeout}.
     */
    public PromptResult promptAndWait(String message, List<ContentBlock.Image> images,
            StreamingBehavior behavior, Duration timeout) {
        return collect(new Command.Prompt(message, images, behavior), timeout);
    }

    /**
     * Sends {@code retry} (re-runs the last turn that ended in an error) and waits until its run is
     * over, as {@link #promptAndWait(String, Duration)} does; throws {@link PromptFailedException}
     * when the daemon refuses it (busy, or nothing failed).
     */
    public PromptResult retryAndWait(Duration timeout) {
        return collect(new Command.Retry(), timeout);
    }

    /**
     * Sends any command and collects every event from just before sending until the agent is idle
     * again after its response (for a prompt: including the run it starts, retries included).
     */
    public List<AgentEvent> collectEvents(Command command, Duration timeout) {
        return collect(command, timeout).events();
    }

    private PromptResult collect(Command command, Duration timeout) {
        requireNotReaderThread(command.type());
        long deadline = Deadlines.from(timeout);
        long runDeadline = tracker.deadlineAfter(timeout);
        String id = nextId();
        boolean isPrompt = command instanceof Command.Prompt || command instanceof Command.Retry;
        boolean hasBehavior = command instanceof Command.Prompt prompt && prompt.streamingBehavior() != null;
        RunTracker.Watch watch = tracker.watch(isPrompt ? id : null, hasBehavior); // subscribe before sending
        try {
            Response response = awaitResponse(send(id, command), id, command.type(), deadline);
            if (isPrompt && !response.success()) {
                // The prompt's one answer (SPEC §3.3): refused or failed its preflight, no run follows.
                throw new PromptFailedException(command.type() + " failed: " + response.error(), response.error(), stderr(),
                        tracker.events(watch), null);
            }
            ResponseData.decode(response, Void.class); // throws when refused
            switch (tracker.await(watch, runDeadline)) {
                case IDLE:
                    return tracker.result(watch);
                default:
                    throw RpcTimeoutException.of("Timeout after " + Deadlines.format(timeout)
                            + " waiting for the run of " + command.type() + " to end (" + tracker.describe(watch) + ")",
                            command.type(), stderr());
            }
        } finally {
            tracker.unwatch(watch);
        }
    }

    /**
     * Returns once no run is active, no retry chain is open, no continuation or compaction is
     * pending and no accepted prompt awaits its run (for a daemon that sends them: its agent_settled came).
     */
    public void waitForIdle(Duration timeout) {
        requireNotReaderThread("waitForIdle");
        if (tracker.awaitIdle(tracker.deadlineAfter(timeout)) == RunTracker.Outcome.TIMEOUT) {
            throw RpcTimeoutException.of("Timeout after " + Deadlines.format(timeout)
                    + " waiting for the agent to become idle (" + tracker.describe(null) + ")", null, stderr());
        }
    }

    /** The client-tracked state right now (see {@link #waitForIdle}). */
    public boolean isIdle() {
        return tracker.isIdle();
    }

    // --- process -----------------------------------------------------------------------------

    /** The last 64 KiB of the daemon's stderr ("" in attach mode). */
    public String stderr() {
        Transport current = transport;
        return current == null ? "" : current.stderr();
    }

    /** The daemon's pid in spawn mode. */
    public OptionalLong pid() {
        Transport current = transport;
        return current == null ? OptionalLong.empty() : current.pid();
    }

    /**
     * Fails pending requests with "client closed", then (spawn mode) sends EOF, waits, destroys the
     * daemon and any descendants left, or (attach mode) closes the output stream. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        RpcException reason = new RpcException("client closed", null, null, stderr(), null);
        pending.close(reason);
        tracker.fail(reason);
        Transport current = transport;
        if (current != null) {
            current.close();
        }
    }

    // --- plumbing ----------------------------------------------------------------------------

    private String nextId() {
        return "req_" + ids.incrementAndGet();
    }

    private CompletableFuture<Response> send(String id, Command command) {
        Transport current = transport;
        if (current == null) {
            throw new IllegalStateException("RpcClient not started");
        }
        if (command instanceof Command.Prompt prompt && prompt.streamingBehavior() == null
                || command instanceof Command.Retry) {
            tracker.promptSent(id); // busy from now until its agent_start or its failure
        }
        CompletableFuture<Response> future = pending.register(id, command.type());
        if (future.isDone()) {
            tracker.promptSettled(id);
            return future; // the connection is already gone
        }
        try {
            current.write(dialect.encode(id, command));
        } catch (IOException | RuntimeException e) {
            tracker.promptSettled(id);
            pending.fail(id, e instanceof IOException
                    ? current.endReason(e) // a broken pipe: say why (exit code, stderr)
                    : new RpcException("Cannot send " + command.type() + ": " + e, command.type(), null, null, e));
        }
        return future;
    }

    private Response awaitResponse(CompletableFuture<Response> future, String id, String command, long deadline) {
        try {
            return future.get(Deadlines.remaining(deadline), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            pending.forget(id);
            throw RpcTimeoutException.of("Timeout waiting for response to " + command, command, stderr());
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RpcException rpc ? rpc.rethrowFor(command)
                    : new RpcException(command + " failed: " + e.getCause(), command, null, stderr(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pending.forget(id);
            throw new RpcException("Interrupted waiting for response to " + command, command, null, stderr(), e);
        }
    }

    private void requireNotReaderThread(String what) {
        Transport current = transport;
        if (current != null && current.onReaderThread()) {
            throw new IllegalStateException("Blocking call (" + what + ") from a listener would deadlock the "
                    + "client's reader thread; use send/requestAsync there");
        }
    }

    /** Configures an {@link RpcClient}: spawn mode ({@link #command}, {@link #jar}) or attach mode. */
    public static final class Builder {
        private final ClientOptions.Draft draft = new ClientOptions.Draft();

        private Builder() {}

        /** Spawn mode: the full command line, e.g. {@code ["java", "-jar", "/path/agentd.jar"]}. */
        public Builder command(List<String> command) {
            draft.command = List.copyOf(command);
            return this;
        }

        /** Spawn mode: {@code <this JVM's java> -jar <jar>}. */
        public Builder jar(Path jar) {
            return command(List.of(ClientOptions.javaBinary(), "-jar", jar.toString()));
        }

        /** Extra arguments appended to the command line (e.g. {@code --faux-script x.json}). */
        public Builder args(String... args) {
            draft.args.addAll(List.of(args));
            return this;
        }

        /** Variables merged over this process's environment; a null value removes the variable. */
        public Builder env(Map<String, String> env) {
            draft.env.putAll(env);
            return this;
        }

        public Builder cwd(Path cwd) {
            draft.cwd = cwd;
            return this;
        }

        /** Attach mode: talk to a daemon over these streams (its stdout, its stdin). */
        public Builder streams(InputStream fromDaemon, OutputStream toDaemon) {
            draft.fromDaemon = Objects.requireNonNull(fromDaemon, "fromDaemon");
            draft.toDaemon = Objects.requireNonNull(toDaemon, "toDaemon");
            return this;
        }

        /** For the blocking typed methods (default 30 s). */
        public Builder requestTimeout(Duration timeout) {
            draft.requestTimeout = ClientOptions.nonNegative(timeout, "requestTimeout");
            return this;
        }

        /** For {@link RpcClient#start()} to get its get_state answer (default 30 s). */
        public Builder startTimeout(Duration timeout) {
            draft.startTimeout = ClientOptions.nonNegative(timeout, "startTimeout");
            return this;
        }

        /** For each step of {@link RpcClient#close()}: exit after EOF, after SIGTERM, … (default 5 s). */
        public Builder closeTimeout(Duration timeout) {
            draft.closeTimeout = ClientOptions.nonNegative(timeout, "closeTimeout");
            return this;
        }

        /**
         * How long an agent_end without willRetry (older pi servers) waits for an auto_retry_start or
         * compaction_start before it counts as final (default 250 ms).
         */
        public Builder retryGrace(Duration grace) {
            draft.retryGrace = ClientOptions.nonNegative(grace, "retryGrace");
            return this;
        }

        /**
         * The daemon's wire dialect (default {@link Dialect#RPC}). A spawned daemon is given the
         * dialect's {@code --mode} (rpc, its default, needs none) unless the command line passes one.
         */
        public Builder dialect(Dialect dialect) {
            draft.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /** Told about ignored input: non-JSON lines, malformed records, oversized lines. */
        public Builder onProtocolError(Consumer<String> handler) {
            draft.onProtocolError = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** Told about exceptions thrown by listeners (which never stop delivery). */
        public Builder onListenerError(Consumer<Throwable> handler) {
            draft.onListenerError = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** The client, not started yet. */
        public RpcClient build() {
            return new RpcClient(draft.freeze());
        }

        /** As {@link #build()} with {@code tracker} (tests: one on a fake clock; its grace wins). */
        RpcClient build(RunTracker tracker) {
            return new RpcClient(draft.freeze(), tracker);
        }

        /** {@code build().start()}. */
        public RpcClient start() {
            return build().start();
        }
    }
}
