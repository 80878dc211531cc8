package dev.agentd.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
    void withoutOneTheSourceIsReproducible() {
        SessionContext first = new SessionContext(null, null, null, null, clock, null, () -> "", Path.of("."), null);
        SessionContext second = new SessionContext(null, null, null, null, clock, null, () -> "", Path.of("."), null);
        List<Long> draws = List.of(first.random().nextLong(), first.random().nextLong());
        assertEquals(draws, List.of(second.random().nextLong(), second.random().nextLong()));
        assertEquals(new Random(SessionContext.FIXED_SEED).nextLong(), draws.get(0));
    }
}
