package dev.agentd.server.ai.anthropic;

import static dev.agentd.server.testing.Waits.await;
import static dev.agentd.server.testing.http.AnthropicWire.chunks;
import static dev.agentd.server.testing.http.AnthropicWire.error;
import static dev.agentd.server.testing.http.AnthropicWire.errorBody;
import static dev.agentd.server.testing.http.AnthropicWire.messageStart;
import static dev.agentd.server.testing.http.AnthropicWire.ping;
import static dev.agentd.server.testing.http.AnthropicWire.textBlock;
import static dev.agentd.server.testing.http.AnthropicWire.textReply;
import static dev.agentd.server.testing.http.FakeProviderServer.json;
import static dev.agentd.server.testing.http.FakeProviderServer.sse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.RecordingListener;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How an Anthropic call fails: HTTP errors with their structured fields and retry hints, in-band
 * errors, dropped and truncated streams, garbage, the three timeouts, abort, and key hygiene.
 */
class AnthropicFailuresTest {
    static final String KEY = AnthropicProviderTest.KEY;
    static final String OVERLOADED_BODY = errorBody("overloaded_error", "Overloaded");

    FakeProviderServer server;
    SystemScheduler scheduler;
    volatile ProviderTimeouts timeouts = new ProviderTimeouts(5_000, 5_000, 5_000);
    Provider provider;
    Model model;

    @BeforeEach
    void setUp() {
        server = FakeProviderServer.start();
        scheduler = new SystemScheduler();
        provider = HttpProviders.create(new LazyHttpClient(), scheduler, () -> timeouts).get(0);
        model = model(server.baseUrl());
    }

    @AfterEach
    void tearDown() {
        server.close();
        scheduler.close();
    }

    static Model model(String baseUrl) {
        return new Model("claude-test", "Claude Test", "anthropic-messages", "anthropic", baseUrl, false,
                List.of("text"), new Model.Cost(3, 15, 0.30, 3.75), 200_000, 8_192);
    }

    AgentMessage.Assistant send(RecordingListener listener, CancellationToken cancel) {
        StreamRequest request = new StreamRequest(model, "sys",
                List.of(new AgentMessage.User(List.of(new ContentBlock.Text("hi")), 1)), List.of(), ThinkingLevel.OFF,
                KEY, Map.of(), "s");
        return provider.stream(request, listener, cancel);
    }

    AgentMessage.Assistant send() {
        return send(new RecordingListener(), CancellationToken.none());
    }

    @Test
    void anHttpErrorBecomesStatusAndBodyWithItsStructuredFields() {
        server.enqueue(json(529, OVERLOADED_BODY, Map.of("x-should-retry", "true", "request-id", "req_1")));
        AgentMessage.Assistant reply = send();
        assertEquals(StopReason.ERROR, reply.stopReason());
        assertEquals("529 " + OVERLOADED_BODY, reply.errorMessage());
        assertEquals(529, reply.errorStatus());
        assertEquals("overloaded_error", reply.errorType());
        assertEquals(Boolean.TRUE, reply.shouldRetry());
        assertNull(reply.retryAfterMs());
        assertEquals(List.of(), reply.content());
    }

    @Test
    void longBodiesAreTrimmedAndEmptyOnesNamed() {
        server.enqueue(json(500, "x".repeat(5000), Map.of()), json(503, "", Map.of("x-should-retry", "maybe")));
        assertEquals("500 " + "x".repeat(2000), send().errorMessage());
        AgentMessage.Assistant bodiless = send();
        assertEquals("503 status code (no body)", bodiless.errorMessage());
        assertEquals(503, bodiless.errorStatus());
        assertNull(bodiless.shouldRetry(), "only true/false are obeyed");
    }

    @Test
    void a429CarriesTheServerRetryHintOfEachHeaderStyle() {
        String body = errorBody("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit");
        Instant now = Instant.now();
        String reset = DateTimeFormatter.ISO_INSTANT.format(now.plusSeconds(30));
        String httpDate = DateTimeFormatter.RFC_1123_DATE_TIME.format(now.plusSeconds(40).atOffset(ZoneOffset.UTC));
        List<Map<String, String>> styles = List.of(
                Map.of("retry-after-ms", "1500"),
                Map.of("retry-after", "7"),
                Map.of("x-ratelimit-reset-tokens", "6m0s"),
                Map.of("anthropic-ratelimit-tokens-reset", reset),
                Map.of("retry-after", httpDate));
        List<Long> hints = new ArrayList<>();
        for (Map<String, String> headers : styles) {
            server.enqueue(json(429, body, headers));
            AgentMessage.Assistant reply = send();
            assertEquals(429, reply.errorStatus());
            assertEquals("rate_limit_error", reply.errorType());
            hints.add(reply.retryAfterMs());
        }
        assertEquals(List.of(1_500L, 7_000L, 360_000L), hints.subList(0, 3));
        assertTrue(hints.get(3) > 25_000 && hints.get(3) <= 30_000, "RFC 3339 reset: " + hints.get(3));
        assertTrue(hints.get(4) > 35_000 && hints.get(4) <= 40_000, "HTTP date: " + hints.get(4));
    }

    @Test
    void aHintInTheBodyIsUsedWhenNoHeaderHasOne() {
        server.enqueue(json(429, errorBody("rate_limit_error", "Please try again in 20s."), Map.of()));
        assertEquals(20_000L, send().retryAfterMs());
    }

    @Test
    void anInBandErrorAfterSomeTextKeepsTheTextAndNamesTheType() {
        String event = error("overloaded_error", "Overloaded");
        server.enqueue(sse(chunks(messageStart(10, 0, 0), ping(), textBlock(0, "Partial ", "answer"), event)));
        AgentMessage.Assistant reply = send();
        assertEquals(StopReason.ERROR, reply.stopReason());
        String data = event.substring(event.indexOf("data: ") + 6).trim();
        assertEquals(data, reply.errorMessage(), "the event's JSON as received");
        assertNull(reply.errorStatus());
        assertEquals("overloaded_error", reply.errorType());
        assertEquals(List.of(new ContentBlock.Text("Partial answer")), reply.content());
        assertEquals(10, reply.usage().input());
    }

    @Test
    void aConnectionDroppedMidStreamIsAConnectionErrorKeepingPartialContent() {
        server.enqueue(sse(chunks(messageStart(10, 0, 0), textBlock(0, "Partial"))).ending(FakeProviderServer.End.DROP));
        AgentMessage.Assistant reply = send();
        assertEquals(StopReason.ERROR, reply.stopReason());
        assertTrue(reply.errorMessage().startsWith("Connection error: "), reply.errorMessage());
        assertEquals(ErrorTypes.CONNECTION, reply.errorType());
        assertEquals(List.of(new ContentBlock.Text("Partial")), reply.content());
    }

    @Test
    void aRefusedConnectionIsAConnectionError() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        model = model("http://127.0.0.1:" + port);
        AgentMessage.Assistant reply = send();
        assertTrue(reply.errorMessage().startsWith("Connection error: "), reply.errorMessage());
        assertEquals(ErrorTypes.CONNECTION, reply.errorType());
    }

    @Test
    void anUnansweredConnectHitsTheConnectTimeout() throws IOException {
        // A listener that never accepts: once its backlog is full, further connects hang (Linux).
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> filling = new ArrayList<>();
            boolean full = false;
            try {
                for (int i = 0; i < 10 && !full; i++) {
                    Socket socket = new Socket();
                    filling.add(socket);
                    try {
                        socket.connect(new InetSocketAddress(silent.getInetAddress(), silent.getLocalPort()), 200);
                    } catch (SocketTimeoutException e) {
                        full = true;
                    }
                }
                assumeTrue(full, "this platform completes connects beyond the backlog");
                timeouts = new ProviderTimeouts(300, 5_000, 5_000);
                model = model("http://127.0.0.1:" + silent.getLocalPort());
                AgentMessage.Assistant reply = send();
                assertTrue(reply.errorMessage().startsWith("Connect timeout after 300 ms to 127.0.0.1:"), reply.errorMessage());
                assertEquals(ErrorTypes.CONNECT_TIMEOUT, reply.errorType());
            } finally {
                for (Socket socket : filling) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aStreamEndingWithoutMessageStopIsTruncated() {
        server.enqueue(sse(chunks(messageStart(10, 0, 0), textBlock(0, "Partial"))));
        AgentMessage.Assistant reply = send();
        assertEquals(ErrorTypes.STREAM_TRUNCATED, reply.errorType());
        assertTrue(reply.errorMessage().contains("terminated"), reply.errorMessage());
        assertEquals(List.of(new ContentBlock.Text("Partial")), reply.content());
    }

    @Test
    void garbageIsAMalformedStreamEvent() {
        server.enqueue(sse(chunks(messageStart(10, 0, 0), "event: content_block_delta\ndata: {not json\n\n")));
        AgentMessage.Assistant reply = send();
        assertTrue(reply.errorMessage().startsWith("Malformed anthropic-messages stream event: {not json"), reply.errorMessage());
        assertEquals(ErrorTypes.STREAM_TRUNCATED, reply.errorType());
    }

    @Test
    void headersThenSilenceHitsTheStreamStartTimeout() {
        timeouts = new ProviderTimeouts(5_000, 300, 5_000);
        server.enqueue(sse(List.of()).ending(FakeProviderServer.End.HANG));
        AgentMessage.Assistant reply = send();
        assertEquals("stream start timeout after 300 ms", reply.errorMessage());
        assertEquals(ErrorTypes.STREAM_START_TIMEOUT, reply.errorType());
    }

    @Test
    void silenceAfterTheFirstEventHitsTheIdleTimeout() {
        timeouts = new ProviderTimeouts(5_000, 5_000, 300);
        server.enqueue(sse(chunks(messageStart(10, 0, 0), textBlock(0, "Partial")))
                .ending(FakeProviderServer.End.HANG));
        AgentMessage.Assistant reply = send();
        assertEquals("stream idle timeout after 300 ms", reply.errorMessage());
        assertEquals(ErrorTypes.STREAM_IDLE_TIMEOUT, reply.errorType());
        assertEquals(List.of(new ContentBlock.Text("Partial")), reply.content());
    }

    @Test
    void aSlowDripWithinTheIdleLimitSucceeds() {
        // 9 events 250 ms apart: 2 s in all, longer than the limit; each gap leaves ~1 s to spare
        timeouts = new ProviderTimeouts(5_000, 5_000, 1_200);
        server.enqueue(sse(textReply("a", "b", "c")).withDelay(250));
        AgentMessage.Assistant reply = send();
        assertEquals(StopReason.STOP, reply.stopReason(), reply.errorMessage());
        assertEquals("abc", reply.text());
    }

    @Test
    void abortEndsTheStreamAtOnceKeepingPartialContentAndClosesTheConnection() {
        List<String> deltas = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            deltas.add("tok" + i + " ");
        }
        server.enqueue(sse(textReply(deltas.toArray(String[]::new))).withDelay(20));
        RecordingListener listener = new RecordingListener();
        CancellationToken cancel = new CancellationToken();
        CompletableFuture<AgentMessage.Assistant> reply = CompletableFuture.supplyAsync(() -> send(listener, cancel));
        await().until(() -> listener.types().contains("text_delta"));

        long before = System.nanoTime();
        cancel.cancel();
        AgentMessage.Assistant aborted = reply.join();
        long tookMs = Duration.ofNanos(System.nanoTime() - before).toMillis();

        // The stream would run 10 s; the bound is loose so that a loaded machine does not fail it.
        assertTrue(tookMs < 3_000, "abort took " + tookMs + " ms");
        assertEquals(StopReason.ABORTED, aborted.stopReason());
        assertEquals("Request was aborted", aborted.errorMessage());
        assertFalse(aborted.text().isEmpty(), "partial content is kept");
        await().until(() -> server.disconnects() >= 1);
        assertEquals(1, server.requestCount());
    }

    @Test
    void theKeyNeverReachesAnErrorMessageOrTheLog() {
        String echoing = errorBody("authentication_error", "invalid x-api-key: " + KEY);
        server.enqueue(json(401, echoing, Map.of()), sse(chunks("data: {\"leak\":\"" + KEY + "\n\n")));
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        AgentMessage.Assistant unauthorized;
        AgentMessage.Assistant garbage;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            unauthorized = send();
            garbage = send();
        } finally {
            System.setErr(original);
        }
        assertEquals(401, unauthorized.errorStatus());
        assertTrue(unauthorized.errorMessage().contains("<redacted>"), unauthorized.errorMessage());
        for (String text : List.of(unauthorized.errorMessage(), garbage.errorMessage(),
                captured.toString(StandardCharsets.UTF_8))) {
            assertFalse(text.contains(KEY), text);
            assertFalse(text.contains("0123456789abcdef"), text);
        }
    }
}
