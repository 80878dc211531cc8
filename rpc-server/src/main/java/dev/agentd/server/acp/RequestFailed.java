package dev.agentd.server.acp;

/**
 * A request that cannot be served, answered with {@code code}: thrown while opening or loading a
 * session, by {@code AcpMode} and {@code StoredSessions} alike.
 */
final class RequestFailed extends RuntimeException {
    final int code;

    RequestFailed(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }
}
