package dev.agentd.server.state.redis;

import java.util.List;

/** One RESP2 reply, decoded. Bulk strings are UTF-8 text: agentd stores only text. */
sealed interface Reply {
    record Simple(String text) implements Reply {}

    /** An error reply; {@link #code()} is its first word (e.g. {@code NOSCRIPT}, {@code WRONGPASS}). */
    record Error(String message) implements Reply {
        String code() {
            int space = message.indexOf(' ');
            return space < 0 ? message : message.substring(0, space);
        }
    }

    record Int(long value) implements Reply {}

    record Bulk(String text) implements Reply {}

    /** A null bulk string or null array. */
    record Nil() implements Reply {}

    record Array(List<Reply> items) implements Reply {}
}
