package dev.agentd.server.state.redis;

import dev.agentd.server.runtime.Scheduler;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's link to Redis: a few pooled connections, and whether Redis is usable right now.
 *
 * <p>Up: a call borrows a connection (opening one lazily, on the first call, never at startup)
 * and runs one script. Its whole time is bounded: the command timeout, plus the connect and
 * command timeouts when it had to connect (a connection still opening when the caller's time is
 * up is adopted by the pool if it succeeds, and counts as an outage only if it fails). Any failure (refused, timed out, an error reply, a reply agentd does
 * not accept) marks the link down with ONE warning; while down, calls answer empty at once and
 * the caller uses process-local state. Reconnect attempts are scheduled on the injected
 * {@link Scheduler} with exponential backoff and run on the link's own connector thread (a
 * scheduled task must not block); the first attempt that connects and answers PING brings the
 * link up again, with one info line.
 *
 * <p>Connections are opened on the connector thread, the caller waiting at most its remaining
 * time, so even a slow name lookup cannot hold a prompt.
 */
final class RedisConnections implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RedisConnections.class);
    static final int MAX_CONNECTIONS = 4;

    /** Decodes a script's reply; a reply of the wrong shape is a protocol error. */
    interface Decoder<T> {
        T decode(Reply reply) throws RespProtocolException;
    }

    private final RedisEndpoint endpoint;
    private final long connectTimeoutMs;
    private final long commandTimeoutMs;
    private final Scheduler scheduler;
    private final long firstBackoffMs;
    private final long maxBackoffMs;
    private final Semaphore permits = new Semaphore(MAX_CONNECTIONS, true);
    private final ConcurrentLinkedDeque<RespConnection> idle = new ConcurrentLinkedDeque<>();
    private final ExecutorService connector = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "agentd-redis-connect");
        thread.setDaemon(true);
        return thread;
    });

    private final Object lock = new Object();
    /** Why the link is down; null while up (or not tried yet). */
    private volatile String downReason;
    private volatile boolean closed;
    private long backoffMs;
    private Scheduler.Cancellable pendingAttempt;
    /** Outage warnings logged so far (one per outage), for tests. */
    private int warnings;

    RedisConnections(RedisEndpoint endpoint, long connectTimeoutMs, long commandTimeoutMs, Scheduler scheduler,
            long firstBackoffMs, long maxBackoffMs) {
        this.endpoint = endpoint;
        this.connectTimeoutMs = connectTimeoutMs;
        this.commandTimeoutMs = commandTimeoutMs;
        this.scheduler = scheduler;
        this.firstBackoffMs = firstBackoffMs;
        this.maxBackoffMs = maxBackoffMs;
    }

    /** Runs {@code script}; empty when Redis is not usable now (the caller falls back). */
    <T> Optional<T> eval(Script script, List<String> keys, List<String> args, Decoder<T> decoder) {
        if (closed || downReason != null) {
            return Optional.empty();
        }
        long start = System.nanoTime();
        try {
            if (!permits.tryAcquire(commandTimeoutMs, TimeUnit.MILLISECONDS)) {
                // Every connection is busy for a whole command time: Redis is too slow to wait for.
                return Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        RespConnection connection = null;
        try {
            connection = idle.pollFirst();
            long deadline = start + commandTimeoutMs * 1_000_000L;
            if (connection == null) {
                connection = connect(deadline + connectTimeoutMs * 1_000_000L);
                deadline = System.nanoTime() + commandTimeoutMs * 1_000_000L; // the script's own time
            }
            Reply reply = run(connection, deadline, script, keys, args);
            if (reply instanceof Reply.Error error) {
                throw new RedisRefusedException(script.name().toLowerCase(Locale.ROOT) + " refused ("
                        + safeCode(error) + ")");
            }
            T value = decoder.decode(reply);
            idle.offerFirst(connection);
            connection = null;
            return Optional.of(value);
        } catch (StillConnecting e) {
            return Optional.empty();
        } catch (IOException e) {
            markDown(reason(e));
            return Optional.empty();
        } finally {
            if (connection != null) {
                connection.close();
            }
            permits.release();
        }
    }

    /** Whether the link is usable, and if not why (secret-free). */
    Optional<String> problem() {
        String reason = downReason;
        return reason == null ? Optional.empty()
                : Optional.of("Redis at " + endpoint.redacted() + " unreachable (" + reason
                        + "); using process-local state until it is back");
    }

    int warnings() {
        synchronized (lock) {
            return warnings;
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            if (pendingAttempt != null) {
                pendingAttempt.cancel();
            }
        }
        connector.shutdownNow();
        RespConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            connection.close();
        }
    }

    private static Reply run(RespConnection connection, long deadline, Script script, List<String> keys,
            List<String> args) throws IOException {
        String[] command = new String[3 + keys.size() + args.size()];
        command[0] = "EVALSHA";
        command[1] = script.sha;
        command[2] = Integer.toString(keys.size());
        int i = 3;
        for (String key : keys) {
            command[i++] = key;
        }
        for (String arg : args) {
            command[i++] = arg;
        }
        Reply reply = connection.call(deadline, command);
        if (reply instanceof Reply.Error error && error.code().equals("NOSCRIPT")) {
            command[0] = "EVAL";
            command[1] = script.body;
            reply = connection.call(deadline, command);
        }
        return reply;
    }

    /** Opens a connection on the connector thread, waiting until {@code deadline} at most. */
    private RespConnection connect(long deadline) throws IOException {
        CompletableFuture<RespConnection> opening;
        try {
            opening = CompletableFuture.supplyAsync(this::openUnchecked, connector);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new IOException("closed");
        }
        try {
            return opening.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // The caller goes local now; the opening's own outcome decides whether Redis is down
            // (a cold JVM's first connect can outlast the caller's budget without Redis being slow).
            opening.whenComplete((connection, failure) -> {
                if (connection == null) {
                    markDown(reason(unwrap(failure)));
                    return;
                }
                synchronized (lock) { // against close() draining the pool meanwhile
                    if (closed) {
                        connection.close();
                    } else {
                        idle.offerFirst(connection);
                    }
                }
            });
            throw new StillConnecting();
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SocketTimeoutException("interrupted");
        }
    }

    private static IOException unwrap(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException ? failure.getCause() : failure;
        cause = cause instanceof WrappedIo wrapped ? wrapped.getCause() : cause;
        return cause instanceof IOException io ? io : new IOException(cause);
    }

    private RespConnection openUnchecked() {
        try {
            return RespConnection.open(endpoint, connectTimeoutMs, commandTimeoutMs);
        } catch (IOException e) {
            throw new WrappedIo(e);
        }
    }

    private void markDown(String reason) {
        synchronized (lock) {
            if (closed || downReason != null) {
                return;
            }
            downReason = reason;
            backoffMs = firstBackoffMs;
            warnings++;
            log.warn("shared state: Redis at {} unreachable ({}); using process-local state, retrying in the "
                    + "background", endpoint.redacted(), reason);
            RespConnection connection;
            while ((connection = idle.pollFirst()) != null) {
                connection.close();
            }
            scheduleAttempt();
        }
    }

    /** Holding {@link #lock}. The task only hands the attempt to the connector thread. */
    private void scheduleAttempt() {
        pendingAttempt = scheduler.schedule(backoffMs, () -> {
            try {
                connector.execute(this::attempt);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closed meanwhile
            }
        });
    }

    private void attempt() {
        if (closed) {
            return;
        }
        RespConnection connection = null;
        try {
            connection = RespConnection.open(endpoint, connectTimeoutMs, commandTimeoutMs);
            Reply pong = connection.call(System.nanoTime() + commandTimeoutMs * 1_000_000L, "PING");
            if (!(pong instanceof Reply.Simple)) {
                throw new RedisRefusedException("PING refused");
            }
            synchronized (lock) {
                if (closed) {
                    connection.close();
                    return;
                }
                idle.offerFirst(connection);
                connection = null;
                downReason = null;
                log.info("shared state: Redis at {} is back; sharing again", endpoint.redacted());
            }
        } catch (IOException e) {
            if (connection != null) {
                connection.close();
            }
            synchronized (lock) {
                if (!closed) {
                    log.debug("shared state: Redis still unreachable ({})", reason(e));
                    backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
                    scheduleAttempt();
                }
            }
        }
    }

    /** A fixed, secret-free description of a failure. */
    static String reason(IOException e) {
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof SocketTimeoutException) {
            return "timed out";
        }
        if (e instanceof UnknownHostException) {
            return "unknown host";
        }
        if (e instanceof SSLException) {
            return "TLS failed";
        }
        if (e instanceof RedisRefusedException || e instanceof RespProtocolException) {
            return e.getMessage(); // built by agentd from codes and numbers only
        }
        return "I/O error (" + e.getClass().getSimpleName() + ")";
    }

    /** The error code with anything but capitals dropped, so no server text is echoed. */
    private static String safeCode(Reply.Error error) {
        StringBuilder code = new StringBuilder();
        for (char c : error.code().toCharArray()) {
            if (c >= 'A' && c <= 'Z' && code.length() < 24) {
                code.append(c);
            }
        }
        return code.length() == 0 ? "ERR" : code.toString();
    }

    /** The caller's time is up but the connection attempt goes on: not (yet) an outage. */
    private static final class StillConnecting extends IOException {
        StillConnecting() {
            super("still connecting");
        }
    }

    private static final class WrappedIo extends RuntimeException {
        WrappedIo(IOException cause) {
            super(cause);
        }
    }
}
