package dev.agentd.server.ai.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.ai.AssistantMessageBuilder;
import dev.agentd.server.ai.ProviderError;
import dev.agentd.server.ai.RateLimitHeaders;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.server.ai.ReplyBound;
import dev.agentd.server.ai.TextBounds;
import dev.agentd.server.ai.sse.SseEvent;
import dev.agentd.server.ai.sse.SseParser;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part both HTTP providers share: run one exchange, feed its events to the API's
 * {@link StreamMapper}, and turn every way it can end into the final assistant message — finished,
 * failed with the structured error fields, or aborted — always keeping partial content and usage.
 */
public final class HttpReplyStreamer {
    private static final Logger LOG = LoggerFactory.getLogger(HttpReplyStreamer.class);

    private final StreamingExchange exchange;
    private final Scheduler scheduler;
    private final Supplier<ProviderTimeouts> timeouts;
    private final LongSupplier maxReplyBytes;

    public HttpReplyStreamer(StreamingExchange exchange, Scheduler scheduler, Supplier<ProviderTimeouts> timeouts) {
        this(exchange, scheduler, timeouts, () -> ReplyBound.DEFAULT_MAX_REPLY_BYTES);
    }

    /** @param maxReplyBytes the {@code retry.provider.maxReplyBytes} cap, read per request like the timeouts */
    public HttpReplyStreamer(StreamingExchange exchange, Scheduler scheduler, Supplier<ProviderTimeouts> timeouts,
            LongSupplier maxReplyBytes) {
        this.exchange = exchange;
        this.scheduler = scheduler;
        this.timeouts = timeouts;
        this.maxReplyBytes = maxReplyBytes;
    }

    /** The injected clock (message timestamps, retry-hint dates). */
    public Scheduler scheduler() {
        return scheduler;
    }

    /**
     * Builds and streams one provider call: POST {@code baseUrl + path} with the API's own
     * headers, then the model's configured headers (which may override them), and {@code body}.
     *
     * @param mappers creates the API's event mapper for this reply
     */
    public AgentMessage.Assistant post(StreamRequest request, String path, Map<String, String> apiHeaders,
            Supplier<JsonNode> body, Function<JsonNode, String> errorType,
            BiFunction<AssistantMessageBuilder, Redactor, StreamMapper> mappers, StreamListener listener,
            CancellationToken cancel) {
        return post(request, path, apiHeaders, body, errorType, mappers, listener, cancel, Signer.NONE,
                BodyReader.SSE);
    }

    /**
     * Signs a request after its URL, headers and body are final (AWS SigV4): the headers it
     * returns are added last. A failure it throws is shown as it is, so it must name no secret;
     * secrets it uses must be known to {@link dev.agentd.server.runtime.KnownSecrets} by then.
     */
    @FunctionalInterface
    public interface Signer {
        Signer NONE = (uri, headers, body) -> Map.of();

        Map<String, String> sign(URI uri, Map<String, String> headers, byte[] body)
                throws RequestHeaders.InvalidRequestException;
    }

    /** {@link #post} with a request {@code signer} and a body {@code reader} other than SSE. */
    public AgentMessage.Assistant post(StreamRequest request, String path, Map<String, String> apiHeaders,
            Supplier<JsonNode> body, Function<JsonNode, String> errorType,
            BiFunction<AssistantMessageBuilder, Redactor, StreamMapper> mappers, StreamListener listener,
            CancellationToken cancel, Signer signer, BodyReader reader) {
        AssistantMessageBuilder reply = new AssistantMessageBuilder(request.model(), scheduler.now(), listener,
                ReplyBound.of(request.model(), maxReplyBytes.getAsLong()));
        HttpRequest http;
        try {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("content-type", "application/json");
            headers.putAll(apiHeaders);
            headers.putAll(request.headers());
            byte[] bytes = Json.mapper().writeValueAsBytes(body.get());
            URI uri = URI.create(RequestHeaders.join(request.model().baseUrl(), path));
            headers.putAll(signer.sign(uri, headers, bytes));
            http = RequestHeaders.post(uri, headers, bytes);
        } catch (RequestHeaders.InvalidRequestException e) {
            return reply.fail(ProviderError.of(e.getMessage()));
        } catch (Exception e) {
            // Never e.getMessage(): it could quote a header value or the URL's user info.
            LOG.debug("could not build the {} request: {}", request.model().api(), e.getClass().getName());
            return reply.fail(ProviderError.of("Could not build the request: " + e.getClass().getSimpleName()));
        }
        // Built after signing: the signer's secrets are known by now.
        Redactor redactor = Redactor.of(request.apiKey(), request.headers().values());
        return stream(http, redactor, errorType, reply, mappers.apply(reply, redactor), listener, cancel, reader);
    }

    /**
     * Streams one reply.
     *
     * @param errorType reads the provider's error type or code from a JSON error body
     */
    private AgentMessage.Assistant stream(HttpRequest request, Redactor redactor, Function<JsonNode, String> errorType,
            AssistantMessageBuilder reply, StreamMapper mapper, StreamListener listener, CancellationToken cancel,
            BodyReader reader) {
        ProviderError[] mapperFailure = {null};
        SseParser.Handler handler = new SseParser.Handler() {
            @Override
            public boolean onEvent(SseEvent event) {
                try {
                    // Past its bound the reply is cut: stop reading, which ends the exchange.
                    return mapper.onEvent(event) && !reply.cut();
                } catch (RuntimeException e) {
                    // An event shape the mapper did not expect: report it like garbage on the wire.
                    String name = TextBounds.cut(redactor.apply(event.event()), TextBounds.MAX_TYPE_CHARS);
                    mapperFailure[0] = new ProviderError("Malformed stream event: " + name + " ("
                            + e.getClass().getSimpleName() + ")", null, ErrorTypes.STREAM_TRUNCATED, null, null);
                    return false;
                }
            }
        };
        ExchangeResult result = exchange.run(request, timeouts.get(), cancel, headers -> rateLimits(headers, listener),
                reply::start, handler, reader);
        if (result instanceof ExchangeResult.Aborted) {
            return reply.aborted();
        }
        if (reply.cut()) {
            LOG.debug("provider reply cut: {}", reply.tooLarge().message());
            return reply.fail(reply.tooLarge());
        }
        if (result instanceof ExchangeResult.HttpFailure failure) {
            ProviderError error = HttpErrors.fromResponse(failure, redactor, errorType, scheduler.now());
            LOG.debug("provider answered HTTP {} ({})", failure.status(), error.type());
            return reply.fail(error);
        }
        if (mapperFailure[0] != null) {
            return reply.fail(mapperFailure[0]);
        }
        if (result instanceof ExchangeResult.TransportFailure transport && !mapper.complete()) {
            LOG.debug("provider connection failed");
            return reply.fail(HttpErrors.transport(transport.cause(), redactor));
        }
        if (result instanceof ExchangeResult.TimedOut timedOut && !mapper.complete()) {
            LOG.debug("provider stream timed out: {}", timedOut.errorType());
            return reply.fail(HttpErrors.timeout(timedOut));
        }
        StreamMapper.Outcome outcome = mapper.outcome();
        if (outcome instanceof StreamMapper.Outcome.Failed failed) {
            ProviderError error = failed.error();
            return reply.fail(new ProviderError(redactor.apply(error.message()), error.status(), error.type(),
                    error.retryAfterMs(), error.shouldRetry()));
        }
        if (outcome instanceof StreamMapper.Outcome.Done done) {
            return reply.finish(done.stopReason());
        }
        throw new IllegalStateException("unhandled stream outcome: " + outcome);
    }

    /** Every reply's rate-limit headers go to the listener; a listener's failure is not the reply's. */
    private void rateLimits(HttpHeaders headers, StreamListener listener) {
        RateLimits limits = RateLimitHeaders.parse(headers.map(), scheduler.now());
        if (limits == null) {
            return;
        }
        try {
            listener.onRateLimits(limits);
        } catch (RuntimeException e) {
            LOG.debug("rate-limit listener failed: {}", e.getClass().getName());
        }
    }
}
