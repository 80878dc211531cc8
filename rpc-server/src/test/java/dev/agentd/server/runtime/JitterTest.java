package dev.agentd.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Jitter draws from the injected generator only, within its bounds. */
class JitterTest {

    @Test
    void theInjectedGeneratorDecides() {
        AtomicInteger draws = new AtomicInteger();
        RandomGenerator lowest = () -> {
            draws.incrementAndGet();
            return 0L;
        };
        assertEquals(0, Jitter.upTo(lowest, 30_000));
        assertEquals(1, draws.get());
        assertEquals(new Random(7).nextLong(30_001), Jitter.upTo(new Random(7), 30_000));
    }

    @Test
    void aSeededGeneratorRepeatsAndStaysInRange() {
        Random first = new Random(7);
        Random second = new Random(7);
        for (int i = 0; i < 1_000; i++) {
            long jitter = Jitter.upTo(first, 30_000);
            assertEquals(jitter, Jitter.upTo(second, 30_000));
            assertTrue(jitter >= 0 && jitter <= 30_000, "drawn " + jitter);
        }
    }

    @Test
    void noSpreadDrawsNothing() {
        RandomGenerator never = () -> {
            throw new AssertionError("not drawn");
        };
        assertEquals(0, Jitter.upTo(never, 0));
        assertEquals(0, Jitter.upTo(never, -5));
    }
}
