package dev.agentd.server.cli;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase timings of the path to {@code ready} (SPEC §10 puts a budget on it). Marks cost one
 * {@code nanoTime} each; the report goes to stderr at debug level, or at info level with
 * {@code -Dagentd.trace.startup=true}. The JVM's own boot, before {@code main}, is not seen here:
 * {@code bench/startup.sh} measures from the spawn.
 */
final class StartupTrace {
    private static final boolean ENABLED = Boolean.getBoolean("agentd.trace.startup");
    /** Set when {@link Main} first touches this class, i.e. at the start of {@code main}. */
    private static final long ORIGIN = System.nanoTime();
    private static final List<String> NAMES = new ArrayList<>(16);
    private static final List<Long> TIMES = new ArrayList<>(16);

    private StartupTrace() {}

    /** Records the end of a phase. */
    static synchronized void mark(String phase) {
        NAMES.add(phase);
        TIMES.add(System.nanoTime());
    }

    /** Logs the phases, e.g. {@code startup: main 0.0 ms, config 12.1 ms, …, main→ready 180.2 ms}. */
    static synchronized void report() {
        Logger log = LoggerFactory.getLogger(StartupTrace.class);
        if (!ENABLED && !log.isDebugEnabled()) {
            return;
        }
        StringBuilder line = new StringBuilder("startup: ");
        long previous = ORIGIN;
        for (int i = 0; i < NAMES.size(); i++) {
            line.append(NAMES.get(i)).append(' ').append(millis(TIMES.get(i) - previous)).append(" ms, ");
            previous = TIMES.get(i);
        }
        line.append("main→").append(NAMES.isEmpty() ? "now" : NAMES.get(NAMES.size() - 1)).append(' ')
                .append(millis(previous - ORIGIN)).append(" ms");
        if (ENABLED) {
            log.info("{}", line);
        } else {
            log.debug("{}", line);
        }
    }

    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }
}
