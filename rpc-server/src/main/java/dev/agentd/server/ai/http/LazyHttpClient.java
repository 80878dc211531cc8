package dev.agentd.server.ai.http;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.function.LongFunction;

/**
 * The daemon's one {@link HttpClient}, built on the first request rather than at startup: the
 * client and its TLS machinery cost noticeable class loading, and time-to-ready is a product
 * target (SPEC §10). Redirects are never followed and HTTP/1.1 is used. The connect timeout is
 * fixed per client, so a changed {@code retry.provider.connectTimeoutMs} builds a new one.
 */
public final class LazyHttpClient {
    private final LongFunction<HttpClient> factory;
    private HttpClient client;
    private long connectMs;

    public LazyHttpClient() {
        this(LazyHttpClient::build);
    }

    /** With another way to build the client (tests: a slow build on fake time). */
    LazyHttpClient(LongFunction<HttpClient> factory) {
        this.factory = factory;
    }

    /** The shared client for {@code connectMs}, created on first use. */
    public synchronized HttpClient get(long connectMs) {
        if (client == null || this.connectMs != connectMs) {
            client = factory.apply(connectMs);
            this.connectMs = connectMs;
        }
        return client;
    }

    private static HttpClient build(long connectMs) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofMillis(connectMs))
                .build();
    }

    /** Whether a client exists yet (startup must not create one). */
    public synchronized boolean created() {
        return client != null;
    }
}
