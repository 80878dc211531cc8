package dev.agentd.server.ai.http;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.HashSet;
import java.util.Set;
import javax.net.ssl.SSLException;

/**
 * Names a failed connection in words a user can act on (SPEC §6.1 {@code errorMessage}): what was
 * tried ({@code host:port}) and why — refused, DNS, TLS, timeout. The JDK client reports a refused
 * connection as a {@link ConnectException} without a message around a
 * {@code ClosedChannelException}, which on its own tells nobody that Ollama is not running. Only
 * the host and port are shown: a URL's path or user info could carry a secret.
 */
final class TransportCauses {
    private TransportCauses() {}

    /** The failure as {@code "<what> to host:port[: detail]"}, or null when it is not a connection failure. */
    static String describe(Throwable error, URI uri) {
        String target = target(uri);
        Set<Throwable> seen = new HashSet<>();
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "DNS lookup failed for " + host(uri) + " (" + target + ")";
            }
            if (t instanceof SSLException) {
                return "TLS failure with " + target + detail(t);
            }
            if (t instanceof HttpTimeoutException) {
                return "timeout talking to " + target + detail(t);
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host " + target;
            }
        }
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException) {
                String message = t.getMessage();
                return message == null || message.isBlank() || message.toLowerCase(java.util.Locale.ROOT).contains("refused")
                        ? "connection refused to " + target : "could not connect to " + target + ": " + message.strip();
            }
        }
        return null;
    }

    static String target(URI uri) {
        if (uri == null) {
            return "the provider";
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        return host(uri) + ":" + port;
    }

    private static String host(URI uri) {
        return uri == null || uri.getHost() == null ? "the provider" : uri.getHost();
    }

    private static String detail(Throwable t) {
        String message = t.getMessage();
        if (message == null || message.isBlank()) {
            return " (" + t.getClass().getSimpleName() + ")";
        }
        int newline = message.indexOf('\n');
        String first = (newline < 0 ? message : message.substring(0, newline)).strip();
        return ": " + (first.length() > 200 ? first.substring(0, 200) : first);
    }
}
