package dev.agentd.server.ai.http;

import dev.agentd.server.ai.sse.SseEvent;
import dev.agentd.server.ai.sse.SseParser;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.OutputBackpressure;
import dev.agentd.server.runtime.Scheduler;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * Sends one request and streams its SSE body into a handler on the calling thread, under the
 * connect, stream-start and idle limits and the caller's cancellation. Exactly one request: no
 * retry of any kind happens here (SPEC §5.4). Abort and timeouts both work by cancelling the
 * pending exchange and closing the body stream, which unblocks the reading thread at once.
 */
public final class StreamingExchange {
    /** Error bodies are echoed trimmed to 2000 chars; reading more than this is pointless. */
    private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;
    /** After the terminal event the body's end is read so the connection can be reused, briefly. */
    private static final long DRAIN_LIMIT_MS = 250;
    private static final int MAX_DRAIN_BYTES = 64 * 1024;

    private final LazyHttpClient clients;
    private final Scheduler scheduler;
    private final OutputBackpressure output;

    public StreamingExchange(LazyHttpClient clients, Scheduler scheduler) {
        this(clients, scheduler, OutputBackpressure.NONE);
    }

    /** @param output whether the reading thread is waiting for stdout: that time is not the provider's silence */
    public StreamingExchange(LazyHttpClient clients, Scheduler scheduler, OutputBackpressure output) {
        this.clients = clients;
        this.scheduler = scheduler;
        this.output = output;
    }

    /**
     * Runs the exchange.
     *
     * @param onResponse called once a streaming (2xx, non-JSON) response arrived, before any event
     * @param handler receives the events; returning false ends the exchange as {@link ExchangeResult.Completed}
     */
    public ExchangeResult run(HttpRequest request, ProviderTimeouts timeouts, CancellationToken cancel,
            Runnable onResponse, SseParser.Handler handler) {
        return run(request, timeouts, cancel, onResponse, handler, BodyReader.SSE);
    }

    /** Runs the exchange, reading the body with {@code reader} (SSE or a binary frame format). */
    public ExchangeResult run(HttpRequest request, ProviderTimeouts timeouts, CancellationToken cancel,
            Runnable onResponse, SseParser.Handler handler, BodyReader reader) {
        return run(request, timeouts, cancel, headers -> { }, onResponse, handler, reader);
    }

    /**
     * Runs the exchange.
     *
     * @param onHeaders sees the headers of every response, error or not, before anything else
     *     (the rate-limit figures are read from them)
     */
    public ExchangeResult run(HttpRequest request, ProviderTimeouts timeouts, CancellationToken cancel,
            Consumer<HttpHeaders> onHeaders, Runnable onResponse, SseParser.Handler handler, BodyReader reader) {
        long start = scheduler.monotonicMs();
        RequestLog.Seen seen = new RequestLog.Seen();
        ExchangeResult result = exchange(request, timeouts, cancel, onHeaders, onResponse, handler, reader, seen,
                start);
        RequestLog.log(request, result, seen, scheduler.monotonicMs() - start);
        return result;
    }

    private ExchangeResult exchange(HttpRequest request, ProviderTimeouts timeouts, CancellationToken cancel,
            Consumer<HttpHeaders> onHeaders, Runnable onResponse, SseParser.Handler handler, BodyReader reader,
            RequestLog.Seen seen, long start) {
        Kill kill = new Kill();
        StreamWatchdog watchdog = new StreamWatchdog(scheduler, timeouts, kill, output);
        Runnable unregister = cancel.onCancel(kill);
        try {
            if (cancel.isCancelled()) {
                return new ExchangeResult.Aborted();
            }
            // Built first: a cold JVM's HTTP/TLS class loading is not the provider's silence.
            HttpClient client = clients.get(timeouts.connectMs());
            watchdog.start();
            HttpResponse<InputStream> response = kill.send(client, request);
            InputStream body = new FirstByte(kill.attach(response.body()), watchdog::firstByte);
            int status = response.statusCode();
            seen.response(status, response.headers(), scheduler.monotonicMs() - start);
            onHeaders.accept(response.headers());
            if (status >= 300 || isJson(response)) {
                return new ExchangeResult.HttpFailure(status, response.headers(), readLimited(body));
            }
            onResponse.run();
            boolean ended = reader.read(body, new SseParser.Handler() {
                @Override
                public boolean onEvent(SseEvent event) {
                    watchdog.event();
                    return handler.onEvent(event);
                }

                @Override
                public void onComment(String comment) {
                    watchdog.comment();
                    handler.onComment(comment);
                }
            });
            if (!ended) {
                drain(body, watchdog);
            }
            return new ExchangeResult.Completed();
        } catch (IOException | ExecutionException | CancellationException | CompletionException e) {
            return failure(e, request, cancel, watchdog, timeouts);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill.run();
            return cancel.isCancelled() ? new ExchangeResult.Aborted()
                    : new ExchangeResult.TransportFailure("interrupted");
        } finally {
            watchdog.stop();
            unregister.run();
            kill.close();
        }
    }

    /**
     * Reads what follows the terminal event (normally just the end of the chunked body) so the
     * JDK can keep the connection; a server that keeps talking or stays open is simply cut off.
     */
    private static void drain(InputStream body, StreamWatchdog watchdog) {
        watchdog.draining(DRAIN_LIMIT_MS);
        byte[] sink = new byte[8192];
        long total = 0;
        try {
            int n;
            while (total < MAX_DRAIN_BYTES && (n = body.read(sink)) != -1) {
                total += n;
            }
        } catch (IOException e) {
            // cut off by the drain limit, or the server closed: the reply is complete either way
        }
    }

    private static ExchangeResult failure(Exception e, HttpRequest request, CancellationToken cancel,
            StreamWatchdog watchdog, ProviderTimeouts timeouts) {
        if (cancel.isCancelled()) {
            return new ExchangeResult.Aborted();
        }
        StreamWatchdog.Limit fired = watchdog.fired();
        if (fired == StreamWatchdog.Limit.START) {
            return new ExchangeResult.TimedOut(ErrorTypes.STREAM_START_TIMEOUT,
                    "stream start timeout after " + watchdog.limitMs(fired) + " ms");
        }
        if (fired == StreamWatchdog.Limit.FIRST_EVENT) {
            return new ExchangeResult.TimedOut(ErrorTypes.STREAM_START_TIMEOUT,
                    "stream start timeout: no stream event within " + watchdog.limitMs(fired) + " ms");
        }
        if (fired == StreamWatchdog.Limit.IDLE) {
            return new ExchangeResult.TimedOut(ErrorTypes.STREAM_IDLE_TIMEOUT,
                    "stream idle timeout after " + watchdog.limitMs(fired) + " ms");
        }
        Throwable cause = unwrap(e);
        if (cause instanceof HttpConnectTimeoutException) {
            return new ExchangeResult.TimedOut(ErrorTypes.CONNECT_TIMEOUT,
                    "Connect timeout after " + timeouts.connectMs() + " ms to " + TransportCauses.target(request.uri()));
        }
        String named = TransportCauses.describe(cause, request.uri());
        return new ExchangeResult.TransportFailure(named != null ? named : describe(cause) + " (talking to "
                + TransportCauses.target(request.uri()) + ")");
    }

    private static Throwable unwrap(Throwable e) {
        Throwable current = e;
        while ((current instanceof ExecutionException || current instanceof CompletionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /**
     * The cause chain, outermost first, each level as its message (or its type when it has none),
     * e.g. {@code closed: chunked transfer encoding, state: READING_LENGTH: EOF reached while reading}.
     */
    static String describe(Throwable error) {
        List<String> parts = new ArrayList<>();
        Set<Throwable> seen = new HashSet<>();
        for (Throwable t = error; t != null && seen.add(t) && parts.size() < 4; t = t.getCause()) {
            String part = t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName()
                    : t.getMessage().strip();
            if (!parts.contains(part)) {
                parts.add(part);
            }
        }
        return String.join(": ", parts);
    }

    private static boolean isJson(HttpResponse<?> response) {
        return response.headers().firstValue("content-type")
                .map(type -> type.toLowerCase(Locale.ROOT).startsWith("application/json"))
                .orElse(false);
    }

    private static String readLimited(InputStream body) throws IOException {
        byte[] bytes = body.readNBytes(MAX_ERROR_BODY_BYTES);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Cancels the exchange from any thread: the pending response future before headers, the body
     * stream after. Each side re-checks after publishing, so a kill racing the hand-over is never lost.
     */
    private static final class Kill implements Runnable {
        private volatile boolean killed;
        private volatile CompletableFuture<HttpResponse<InputStream>> pending;
        private volatile InputStream body;

        HttpResponse<InputStream> send(HttpClient client, HttpRequest request)
                throws ExecutionException, InterruptedException {
            pending = client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
            if (killed) {
                pending.cancel(true);
            }
            return pending.get();
        }

        InputStream attach(InputStream stream) {
            body = stream;
            if (killed) {
                closeQuietly(stream);
            }
            return stream;
        }

        @Override
        public void run() {
            killed = true;
            CompletableFuture<HttpResponse<InputStream>> future = pending;
            if (future != null) {
                future.cancel(true);
            }
            closeQuietly(body);
        }

        void close() {
            CompletableFuture<HttpResponse<InputStream>> future = pending;
            if (future != null && !future.isDone()) {
                future.cancel(true);
            }
            closeQuietly(body);
        }

        private static void closeQuietly(InputStream stream) {
            if (stream != null) {
                try {
                    stream.close();
                } catch (IOException ignored) {
                    // closing is best effort; the exchange is over either way
                }
            }
        }
    }

    /** Reports the first byte of the body (the end of the stream-start phase). */
    private static final class FirstByte extends FilterInputStream {
        private Runnable onFirst;

        FirstByte(InputStream in, Runnable onFirst) {
            super(in);
            this.onFirst = onFirst;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                seen();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                seen();
            }
            return n;
        }

        private void seen() {
            if (onFirst != null) {
                Runnable callback = onFirst;
                onFirst = null;
                callback.run();
            }
        }
    }
}
