package dev.agentd.server.recovery;

import dev.agentd.server.ai.ErrorTypes;
import java.util.Set;

/**
 * What kind of transient failure a reply reports, decided once with its class (review W4): the
 * cooldown it earns (FALLBACK §5.4) and the {@code errorKind} an editor sees are table lookups on
 * it. In order: a transport error type (a connection or timeout agentd itself observed), an
 * overloaded provider (529, {@code overloaded_error}, "overloaded" or "capacity"), a 503, another
 * server error (5xx status, a standalone 5xx in the text, "server", "internal error"), transport
 * words in the text, else other.
 */
public enum TransientKind {
    TRANSPORT, OVERLOADED, UNAVAILABLE, SERVER, OTHER;

    private static final Set<String> TRANSPORT_TYPES = Set.of(ErrorTypes.CONNECTION, ErrorTypes.CONNECT_TIMEOUT,
            ErrorTypes.STREAM_START_TIMEOUT, ErrorTypes.STREAM_IDLE_TIMEOUT, ErrorTypes.STREAM_TRUNCATED);

    /**
     * @param type the error type, lower-cased (null: none)
     * @param text the error message, lower-cased and bounded (null: none)
     */
    public static TransientKind of(Integer status, String type, String text) {
        String words = text == null ? "" : text;
        if (type != null && TRANSPORT_TYPES.contains(type)) {
            return TRANSPORT;
        }
        if ((status != null && status == 529) || "overloaded_error".equals(type) || words.contains("overloaded")
                || words.contains("capacity")) {
            return OVERLOADED;
        }
        if (status != null && status == 503) {
            return UNAVAILABLE;
        }
        if ((status != null && status >= 500 && status <= 599) || hasServerStatus(words) || words.contains("server")
                || words.contains("internal error")) {
            return SERVER;
        }
        if (words.contains("timed out") || words.contains("timeout") || words.contains("connection")
                || words.contains("econnreset") || words.contains("econnrefused") || words.contains("network")
                || words.contains("socket") || words.contains("terminated") || words.contains("ended without")
                || words.contains("stream ended") || words.contains("fetch failed") || words.contains("closed")
                || words.contains("cut short") || words.contains("epipe") || words.contains("enotfound")
                || words.contains("eai_again") || words.contains("getaddrinfo")) {
            return TRANSPORT;
        }
        return OTHER;
    }

    /** A standalone three-digit token 5xx (a 5 inside a longer number, e.g. a request id, is not one). */
    static boolean hasServerStatus(String text) {
        int run = 0;
        for (int i = 0; i <= text.length(); i++) {
            boolean digit = i < text.length() && Character.isDigit(text.charAt(i));
            if (digit) {
                run++;
                continue;
            }
            if (run == 3 && text.charAt(i - 3) == '5') {
                return true;
            }
            run = 0;
        }
        return false;
    }
}
