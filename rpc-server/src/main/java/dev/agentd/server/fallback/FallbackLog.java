package dev.agentd.server.fallback;

import java.util.Map;

/**
 * The fallback debug log ({@code <agentDir>/logs/fallback.log}, the fallback design §7). Writing
 * never throws and never blocks a turn on a failure; implementations scrub every record with
 * {@link LogScrubber}.
 */
public interface FallbackLog {
    enum Level {
        DEBUG, INFO, WARN;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Discards everything (tests, embedding without an agent directory). */
    FallbackLog NONE = (level, event, data) -> { };

    /** Appends one record; {@code data} keys outside the allowlist are dropped. */
    void write(Level level, String event, Map<String, ?> data);

    default void debug(String event, Map<String, ?> data) {
        write(Level.DEBUG, event, data);
    }

    default void info(String event, Map<String, ?> data) {
        write(Level.INFO, event, data);
    }

    default void warn(String event, Map<String, ?> data) {
        write(Level.WARN, event, data);
    }
}
