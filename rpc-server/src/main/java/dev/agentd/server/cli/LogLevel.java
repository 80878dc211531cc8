package dev.agentd.server.cli;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The stderr log level, chosen before the first logger exists (slf4j-simple reads it once):
 * {@code --verbose} means debug; else {@code AGENTD_LOG} (debug, info, warn; also trace, error);
 * else info. Debug shows each provider request and each retry, compaction and fallback decision
 * (see {@code DecisionLog}, {@code ai.http.RequestLog}); no level ever shows a key or a header value.
 */
final class LogLevel {
    static final String PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";
    private static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error");

    private LogLevel() {}

    /** The level to use, and a complaint about a bad {@code AGENTD_LOG} (null when fine). */
    record Choice(String level, String problem) {}

    static Choice choose(String[] args, Map<String, String> env) {
        for (String arg : args) {
            if (arg.equals("--verbose")) {
                return new Choice("debug", null);
            }
        }
        String wanted = env.get("AGENTD_LOG");
        if (wanted == null || wanted.isBlank()) {
            return new Choice("info", null);
        }
        String level = wanted.trim().toLowerCase(Locale.ROOT);
        if (LEVELS.contains(level)) {
            return new Choice(level, null);
        }
        String shown = level.length() > 16 ? level.substring(0, 16) + "…" : level;
        return new Choice("info", "AGENTD_LOG must be debug, info or warn (or trace, error), got '" + shown
                + "'; using info");
    }

    /** Applies the choice unless the JVM was given the level explicitly ({@code -D}). */
    static void apply(Choice choice) {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, choice.level());
        }
    }
}
