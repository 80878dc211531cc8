package dev.agentd.server.ai.http;

import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One debug line per provider request ({@code --verbose}, {@code AGENTD_LOG=debug}): method, URL
 * (scheme, host, port and path only: no query, no user info), status, latency to the response
 * headers and to the end, the provider's request id, or why it failed. Never a header value other
 * than the request id, never a body, never a key.
 */
final class RequestLog {
    private static final Logger LOG = LoggerFactory.getLogger(RequestLog.class);
    private static final String[] REQUEST_ID_HEADERS = {"request-id", "x-request-id"};
    private static final int MAX_ID_CHARS = 100;

    /** What the exchange saw of the response, filled in as it arrives. */
    static final class Seen {
        int status;
        long headersMs = -1;
        String requestId;

        void response(int status, HttpHeaders headers, long elapsedMs) {
            this.status = status;
            this.headersMs = elapsedMs;
            for (String name : REQUEST_ID_HEADERS) {
                String id = headers.firstValue(name).map(RequestLog::safeId).orElse(null);
                if (id != null) {
                    requestId = id;
                    return;
                }
            }
        }
    }

    private RequestLog() {}

    static void log(HttpRequest request, ExchangeResult result, Seen seen, long totalMs) {
        if (!LOG.isDebugEnabled()) {
            return;
        }
        String head = request.method() + " " + url(request.uri());
        String id = seen.requestId == null ? "" : " request-id " + seen.requestId;
        LOG.debug("{} -> {}{}", head, outcome(result, seen, totalMs), id);
    }

    /** The log line's outcome; one case per {@link ExchangeResult}, an unknown one throws. */
    static String outcome(ExchangeResult result, Seen seen, long totalMs) {
        if (result instanceof ExchangeResult.Completed) {
            return seen.status + " in " + seen.headersMs + " ms, stream done after " + totalMs + " ms";
        } else if (result instanceof ExchangeResult.HttpFailure failure) {
            return failure.status() + " in " + seen.headersMs + " ms (error)";
        } else if (result instanceof ExchangeResult.TransportFailure failure) {
            return "failed after " + totalMs + " ms: " + failure.cause();
        } else if (result instanceof ExchangeResult.TimedOut timedOut) {
            return "timed out after " + totalMs + " ms: " + timedOut.message();
        } else if (result instanceof ExchangeResult.Aborted) {
            return "aborted after " + totalMs + " ms";
        }
        throw new IllegalStateException("unhandled exchange result: " + result);
    }

    static String url(URI uri) {
        String port = uri.getPort() >= 0 ? ":" + uri.getPort() : "";
        return uri.getScheme() + "://" + uri.getHost() + port + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /** A request id as sent, if it looks like one (letters, digits, {@code -_.:}); else nothing. */
    static String safeId(String value) {
        if (value.isEmpty() || value.length() > MAX_ID_CHARS) {
            return null;
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (!(Character.isLetterOrDigit(ch) && ch < 128) && ch != '-' && ch != '_' && ch != '.' && ch != ':') {
                return null;
            }
        }
        return value;
    }
}
