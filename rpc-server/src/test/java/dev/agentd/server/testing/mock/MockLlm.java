package dev.agentd.server.testing.mock;

import org.mockserver.configuration.Configuration;
import org.mockserver.integration.ClientAndServer;

/**
 * A MockServer (issue 25's third-party peer for provider wire formats and faults) on a free
 * loopback port, quiet on stdout, stopped on close. {@link #server()} takes expectations:
 * {@code server().when(request().withPath("/v1/messages")).respondWithLlm(llmResponse()...)}.
 */
public final class MockLlm implements AutoCloseable {
    private final ClientAndServer server;

    private MockLlm(ClientAndServer server) {
        this.server = server;
    }

    public static MockLlm start() {
        Configuration configuration = Configuration.configuration()
                .localBoundIP("127.0.0.1")
                .logLevel("WARN");
        return new MockLlm(ClientAndServer.startClientAndServer(configuration, 0));
    }

    public ClientAndServer server() {
        return server;
    }

    public int port() {
        return server.getPort();
    }

    /** {@code http://127.0.0.1:<port>}, to which a models.json provider's baseUrl appends its path. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    @Override
    public void close() {
        server.stop();
    }
}
