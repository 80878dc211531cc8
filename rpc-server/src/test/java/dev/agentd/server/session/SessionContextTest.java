package dev.agentd.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.agentd.server.testing.FakeScheduler;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The session's random source is the injected one; without one it is seeded, never global. */
class SessionContextTest {
    final FakeScheduler clock = new FakeScheduler();

    @Test
    void theInjectedRandomSourceIsTheSessionsOwn() {
        Random seeded = new Random(1);
        SessionContext context = new SessionContext(null, null, null, null, clock, null, () -> "", Path.of("."),
                null, seeded);
        assertSame(seeded, context.random());
    }

    @Test
    void aContextNeedsItsRandomSource() {
        assertThrows(NullPointerException.class, () -> new SessionContext(null, null, null, null, clock, null,
                () -> "", Path.of("."), null, null));
    }
}
