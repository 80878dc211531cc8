package dev.agentd.server.state.redis;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentd.server.state.Admission;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.state.CircuitView;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.RedisServer;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * N8 in Redis: a circuit record whose {@code openUntil} or lease lies far in the future (a server
 * clock that ran ahead, or any client of the server) is clamped by the scripts to now + the max
 * cooldown (resp. the lease time), so the model is admitted again after that. Real redis-server;
 * skipped without it.
 */
class RedisClampTest {
    /** C = 100 ms, max cooldown M = 1.5 s, lease 1 s. */
    private static final CircuitTimings TIMINGS = new CircuitTimings(100, 1_500, 1_000);
    private static final String FOREVER = Long.toString(Long.MAX_VALUE);

    @TempDir
    static Path dir;
    private static RedisServer server;
    private RedisState state;
    private RecordingLocal local;

    @BeforeAll
    static void startRedis() throws Exception {
        assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
        server = RedisServer.start(dir, Optional.empty());
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void fresh() throws Exception {
        server.cli("FLUSHALL");
        local = new RecordingLocal();
        state = new RedisState(RedisEndpoint.parse(server.url()), "agentd:", 200, 1_000, local, new FakeScheduler());
    }

    @AfterEach
    void close() {
        state.close();
    }

    private void plant(String selector, String... fields) throws Exception {
        String[] args = new String[fields.length + 2];
        args[0] = "HSET";
        args[1] = "agentd:circuit:" + selector;
        System.arraycopy(fields, 0, args, 2, fields.length);
        server.cli(args);
        server.cli("SADD", "agentd:circuits", selector);
    }

    @Test
    void anOpenUntilFarInTheFutureCountsAsTheMaxCooldown() throws Exception {
        plant("alpha/open_until_max", "openUntil", FOREVER, "opens", "1", "floor", FOREVER, "gen", "1");
        long left = assertInstanceOf(Admission.Open.class, state.circuits().admit("alpha/open_until_max", "a", TIMINGS))
                .remainingMs();
        assertTrue(left > 0 && left <= 1_500, "remaining " + left);
        assertTrue(Long.parseLong(server.cli("HGET", "agentd:circuit:alpha/open_until_max", "openUntil").trim())
                < Long.MAX_VALUE / 2, "the clamp is written back");
        await().until(() -> state.circuits().admit("alpha/open_until_max", "a", TIMINGS) instanceof Admission.Probe);
        // the far-future floor no longer stretches the next opening to the maximum
        assertEquals(200, state.circuits().open("alpha/open_until_max", java.util.OptionalLong.empty(), TIMINGS));
        assertEquals(0, local.calls.get());
    }

    @Test
    void aLeaseThatNeverExpiresEndsAfterTheLeaseTime() throws Exception {
        plant("alpha/lease_forever", "openUntil", "0", "opens", "1", "gen", "1", "leaseOwner", "ghost",
                "leaseUntil", FOREVER);
        long left = assertInstanceOf(Admission.Open.class, state.circuits().admit("alpha/lease_forever", "a", TIMINGS))
                .remainingMs();
        assertTrue(left > 0 && left <= 1_000, "remaining " + left);
        // the ghost's lease ends; the record, long past its opening, is then idle: closed
        await().until(() -> !(state.circuits().admit("alpha/lease_forever", "a", TIMINGS) instanceof Admission.Open));
        assertEquals(0, local.calls.get());
    }

    @Test
    void listShowsTheClampedTimeLeft() throws Exception {
        plant("alpha/open_10_years", "openUntil", FOREVER, "opens", "1", "gen", "1");
        CircuitView view = state.circuits().list(TIMINGS).get(0);
        assertEquals(CircuitView.State.OPEN, view.state());
        assertTrue(view.remainingMs() <= 1_500, "remaining " + view.remainingMs());
        await().until(() -> state.circuits().admit("alpha/open_10_years", "a", TIMINGS) instanceof Admission.Probe);
    }
}
