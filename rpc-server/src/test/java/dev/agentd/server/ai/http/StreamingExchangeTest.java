package dev.agentd.server.ai.http;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.ai.sse.SseEvent;
import dev.agentd.server.ai.sse.SseParser;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.FakeProviderServer.End;
import dev.agentd.server.testing.http.OpenAiWire;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One exchange over real HTTP against the fake provider server, with the watchdog on fake time:
 * building the client is not the provider's silence, and keep-alive comments cannot keep an
 * attempt alive for ever.
 */
class StreamingExchangeTest {
    final FakeScheduler clock = new FakeScheduler();
    final FakeProviderServer server = FakeProviderServer.start();
    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger comments = new AtomicInteger();
    final SseParser.Handler handler = new SseParser.Handler() {
        @Override
        public boolean onEvent(SseEvent event) {
            events.add(event.data());
            return true;
        }

        @Override
        public void onComment(String comment) {
            comments.incrementAndGet();
        }
    };

    @AfterEach
    void tearDown() {
        server.close();
    }

    private HttpRequest request() {
        return HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
    }

    @Test
    void buildingTheClientDoesNotCountAsStreamStartTime() {
        server.enqueue(FakeProviderServer.sse(List.of(OpenAiWire.role(), OpenAiWire.content("hi"),
                OpenAiWire.done())));
        // A cold JVM: building the client takes longer than the whole stream-start limit.
        LazyHttpClient slowToBuild = new LazyHttpClient(connectMs -> {
            clock.advance(10_000);
            return HttpClient.newBuilder().build();
        });
        StreamingExchange exchange = new StreamingExchange(slowToBuild, clock);

        ExchangeResult result = exchange.run(request(), new ProviderTimeouts(5_000, 5_000, 5_000),
                CancellationToken.none(), () -> { }, handler);

        assertInstanceOf(ExchangeResult.Completed.class, result);
        assertEquals(3, events.size(), "the whole reply arrived");
    }

    @Test
    void onlyKeepAliveCommentsEndAtTheFirstEventDeadline() {
        server.enqueue(pings(List.of()));
        CompletableFuture<ExchangeResult> result = runAsync(new ProviderTimeouts(5_000, 5_000, 1_000, 3_000));

        await().until(() -> comments.get() >= 3);
        for (int i = 0; i < 3; i++) {
            advanceThenAwaitComments(900);
        }
        assertFalse(result.isDone(), "comments within the idle limit keep the stream open for now");
        clock.advance(300);

        ExchangeResult.TimedOut timedOut = assertInstanceOf(ExchangeResult.TimedOut.class, result.join());
        assertEquals(ErrorTypes.STREAM_START_TIMEOUT, timedOut.errorType());
        assertEquals("stream start timeout: no stream event within 3000 ms", timedOut.message());
        assertEquals(List.of(), events);
    }

    @Test
    void commentsAfterTheFirstEventDoNotPostponeTheIdleLimit() {
        server.enqueue(pings(List.of(OpenAiWire.role())));
        CompletableFuture<ExchangeResult> result = runAsync(new ProviderTimeouts(5_000, 5_000, 1_000, 3_000));

        await().until(() -> events.size() == 1 && comments.get() >= 3);
        clock.advance(1_000);

        ExchangeResult.TimedOut timedOut = assertInstanceOf(ExchangeResult.TimedOut.class, result.join());
        assertEquals(ErrorTypes.STREAM_IDLE_TIMEOUT, timedOut.errorType());
        assertEquals("stream idle timeout after 1000 ms", timedOut.message());
    }

    /**
     * Moves fake time, then waits until a comment certainly read after the move arrived (the second
     * one counted after it: the first may have read the clock before the move).
     */
    private void advanceThenAwaitComments(long ms) {
        clock.advance(ms);
        int seen = comments.get();
        await().until(() -> comments.get() >= seen + 2);
    }

    /** {@code head}, then a {@code : ping} comment every 10 ms (real time), then silence. */
    private static FakeProviderServer.Stream pings(List<String> head) {
        List<String> chunks = new ArrayList<>(head);
        for (int i = 0; i < 3_000; i++) {
            chunks.add(": ping\n\n");
        }
        return FakeProviderServer.sse(chunks).withDelay(10).ending(End.HANG);
    }

    private CompletableFuture<ExchangeResult> runAsync(ProviderTimeouts timeouts) {
        StreamingExchange exchange = new StreamingExchange(new LazyHttpClient(), clock);
        return CompletableFuture.supplyAsync(() -> exchange.run(request(), timeouts, CancellationToken.none(),
                () -> { }, handler));
    }
}
