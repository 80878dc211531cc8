package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Waits under the default {@code retry.jitterRatio} (0.1): an announced delay is the decided wait
 * plus up to a tenth more, never less (issue 27's storm control).
 */
final class Jittered {
    private Jittered() {}

    static void assertDelay(long decidedMs, long announcedMs, String message) {
        assertTrue(announcedMs >= decidedMs && announcedMs <= decidedMs + decidedMs / 10,
                message + ": announced " + announcedMs + " ms for a decided " + decidedMs + " ms");
    }
}
