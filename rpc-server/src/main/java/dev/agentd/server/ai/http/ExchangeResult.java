package dev.agentd.server.ai.http;

import java.net.http.HttpHeaders;

/** How one streaming HTTP exchange ended, before any provider-specific interpretation. */
public sealed interface ExchangeResult {

    /** The body was read to its end, or the event handler stopped reading. */
    record Completed() implements ExchangeResult {}

    /** The server answered with an error status (or a JSON body where a stream was expected). */
    record HttpFailure(int status, HttpHeaders headers, String body) implements ExchangeResult {}

    /** The connection failed, before or during the response; {@code cause} is safe to show. */
    record TransportFailure(String cause) implements ExchangeResult {}

    /** One of agentd's own timeouts ended the exchange. */
    record TimedOut(String errorType, String message) implements ExchangeResult {}

    /** The caller's cancellation token fired. */
    record Aborted() implements ExchangeResult {}
}
