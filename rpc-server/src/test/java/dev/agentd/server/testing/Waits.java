package dev.agentd.server.testing;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/** Awaitility with a short poll: cross-thread waits in tests are bounded, never sleeps. */
public final class Waits {
    private Waits() {}

    public static ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5));
    }
}
