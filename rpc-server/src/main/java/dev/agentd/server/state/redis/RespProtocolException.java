package dev.agentd.server.state.redis;

import java.io.IOException;

/** The server's bytes are not a RESP2 reply agentd accepts; the connection is dropped. */
final class RespProtocolException extends IOException {
    RespProtocolException(String message) {
        super(message);
    }
}
