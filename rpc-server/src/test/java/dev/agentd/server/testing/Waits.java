package dev.agentd.server.testing;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * Awaitility with a short poll: cross-thread waits in tests are bounded, never sleeps. The bound is
 * generous (a wait ends as soon as its condition holds, so it costs nothing when things work) so
 * that a loaded 2-core machine does not fail a test whose subject is not timing.
 */
public final class Waits {
    private Waits() {}

    public static ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5));
    }
}
