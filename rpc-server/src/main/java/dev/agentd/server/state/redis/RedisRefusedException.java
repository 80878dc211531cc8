package dev.agentd.server.state.redis;

import java.io.IOException;

/** Redis answered, but with an error agentd cannot work around (wrong password, read-only, OOM). */
final class RedisRefusedException extends IOException {
    RedisRefusedException(String message) {
        super(message);
    }
}
