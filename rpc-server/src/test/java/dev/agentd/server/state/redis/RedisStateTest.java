package dev.agentd.server.state.redis;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentd.server.state.Admission;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.state.CircuitView;
import dev.agentd.server.state.CredentialId;
import dev.agentd.server.state.ProbeToken;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.RedisServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every operation of {@link RedisState} against a real redis-server. Durations come from the
 * server's clock, so the tests use cooldowns of 1 ms or of minutes and wait (Awaitility) for
 * the short ones to pass, never for a precise time.
 */
class RedisStateTest {
    private static final long MINUTE = 60_000;
    /** C = 1 s, M = 3 s as in FALLBACK §6's example; lease 1 min. */
    private static final CircuitTimings EXAMPLE = new CircuitTimings(1_000, 3_000, MINUTE);
    /** Open for 1 ms, then half-open for a minute before it would turn idle. */
    private static final CircuitTimings SHORT_OPEN = new CircuitTimings(1, MINUTE, MINUTE);

    @TempDir
    static Path dir;
    private static RedisServer server;

    private final FakeScheduler scheduler = new FakeScheduler();
    private final List<RedisState> states = new ArrayList<>();
    private RecordingLocal local;
    private RedisState state;

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
        state = connect(local);
    }

    @AfterEach
    void closeAll() {
        states.forEach(RedisState::close);
    }

    private RedisState connect(RecordingLocal fallback) {
        RedisEndpoint endpoint = RedisEndpoint.parse(server.url());
        RedisState s = new RedisState(endpoint, "agentd:", 200, 1_000, fallback, scheduler);
        states.add(s);
        return s;
    }

    private static long open(RedisState s, String selector, CircuitTimings timings) {
        return s.circuits().open(selector, OptionalLong.empty(), timings);
    }

    private void assertShared() {
        assertTrue(state.status().shared(), state.status().toString());
        assertEquals(0, local.calls.get(), "nothing may reach the local state while Redis is up");
    }

    @Test
    void openDoublesTheCooldownUpToTheCap() {
        assertEquals(List.of(1_000L, 2_000L, 3_000L, 3_000L), List.of(open(state, "p/m", EXAMPLE),
                open(state, "p/m", EXAMPLE), open(state, "p/m", EXAMPLE), open(state, "p/m", EXAMPLE)));
        assertShared();
    }

    @Test
    void retryAfterLengthensTheCooldownButNeverPastTheCap() {
        CircuitTimings wide = new CircuitTimings(1_000, 1_800_000, MINUTE);
        assertEquals(600_000, state.circuits().open("a/m", OptionalLong.of(600_000), wide));
        assertEquals(3_000, state.circuits().open("b/m", OptionalLong.of(600_000), EXAMPLE));
        // A later failure without a hint keeps the outstanding floor (minus the time that passed).
        long again = open(state, "a/m", wide);
        assertTrue(again > 590_000 && again <= 600_000, "kept the floor: " + again);
        assertShared();
    }

    @Test
    void admitAnswersClosedOpenAndThenOneProbeLease() {
        CircuitTimings timings = new CircuitTimings(MINUTE, 10 * MINUTE, MINUTE);
        assertInstanceOf(Admission.Closed.class, state.circuits().admit("p/m", "s1", timings));
        open(state, "p/m", timings);
        Admission open = state.circuits().admit("p/m", "s1", timings);
        long left = assertInstanceOf(Admission.Open.class, open).remainingMs();
        assertTrue(left > 0 && left <= MINUTE, "remaining " + left);

        open(state, "q/m", SHORT_OPEN);
        Admission.Probe probe = awaitProbe(state, "q/m", "s1");
        // The same owner asking again keeps the same token; another owner waits for the lease.
        assertEquals(probe, state.circuits().admit("q/m", "s1", SHORT_OPEN));
        long leaseLeft = assertInstanceOf(Admission.Open.class, state.circuits().admit("q/m", "s2", SHORT_OPEN))
                .remainingMs();
        assertTrue(leaseLeft > MINUTE - 10_000 && leaseLeft <= MINUTE, "the lease's time left: " + leaseLeft);
        assertShared();
    }

    @Test
    void releaseNeedsTheCurrentTokenAndHandsTheLeaseOn() {
        open(state, "p/m", SHORT_OPEN);
        ProbeToken token = awaitProbe(state, "p/m", "s1").token();
        assertFalse(state.circuits().release("p/m", new ProbeToken("s2", token.generation())));
        assertFalse(state.circuits().release("p/m", new ProbeToken("s1", token.generation() + 1)));
        assertTrue(state.circuits().release("p/m", token));
        ProbeToken next = assertInstanceOf(Admission.Probe.class, state.circuits().admit("p/m", "s2", SHORT_OPEN))
                .token();
        assertEquals(new ProbeToken("s2", token.generation()), next);

        // A failed probe re-opens: the lease ends and the old token is stale for the next opening.
        open(state, "p/m", SHORT_OPEN);
        ProbeToken later = awaitProbe(state, "p/m", "s1").token();
        assertTrue(later.generation() > token.generation());
        assertFalse(state.circuits().release("p/m", next));
        assertTrue(state.circuits().release("p/m", later));
        assertShared();
    }

    @Test
    void anUnreleasedLeaseExpiresAfterItsLeaseTime() {
        CircuitTimings shortLease = new CircuitTimings(1, MINUTE, 50);
        open(state, "p/m", shortLease);
        await().until(() -> state.circuits().admit("p/m", "crashed", shortLease) instanceof Admission.Probe);
        // "crashed" never releases; s2 gets the lease once its 50 ms are over.
        await().until(() -> state.circuits().admit("p/m", "s2", shortLease) instanceof Admission.Probe);
        assertShared();
    }

    @Test
    void closeDeletesTheRecordAndResetsTheDoubling() throws Exception {
        open(state, "p/m", EXAMPLE);
        open(state, "p/m", EXAMPLE);
        state.circuits().close("p/m");
        assertInstanceOf(Admission.Closed.class, state.circuits().admit("p/m", "s1", EXAMPLE));
        assertEquals(List.of(), state.circuits().list(EXAMPLE));
        assertEquals(1_000, open(state, "p/m", EXAMPLE));
        assertEquals("0", server.cli("SISMEMBER", "agentd:circuits", "other/m"));
        assertShared();
    }

    @Test
    void listShowsOpenAndHalfOpenCircuits() {
        CircuitTimings timings = new CircuitTimings(MINUTE, 10 * MINUTE, MINUTE);
        open(state, "open/m", timings);
        open(state, "half/m", SHORT_OPEN);
        await().until(() -> state.circuits().list(SHORT_OPEN).stream()
                .anyMatch(v -> v.selector().equals("half/m") && v.state() == CircuitView.State.HALF_OPEN));
        List<CircuitView> views = state.circuits().list(timings);
        assertEquals(2, views.size(), views.toString());
        CircuitView open = views.stream().filter(v -> v.selector().equals("open/m")).findFirst().orElseThrow();
        assertEquals(CircuitView.State.OPEN, open.state());
        assertTrue(open.remainingMs() > 0 && open.remainingMs() <= MINUTE);
        assertShared();
    }

    @Test
    void anIdleRecordExpiresByItsTtl() throws Exception {
        // M = 1.5 s: long enough for redis-cli to read the TTL on a loaded machine, short to wait out.
        CircuitTimings brief = new CircuitTimings(1, 1_500, MINUTE);
        open(state, "p/m", brief);
        long ttl = Long.parseLong(server.cli("PTTL", "agentd:circuit:p/m"));
        assertTrue(ttl > 0 && ttl <= 1_501, "TTL = openUntil + M - now: " + ttl);
        await().until(() -> server.cli("EXISTS", "agentd:circuit:p/m").equals("0"));
        assertInstanceOf(Admission.Closed.class, state.circuits().admit("p/m", "s1", brief));
        assertEquals(List.of(), state.circuits().list(brief));
        assertEquals("0", server.cli("SCARD", "agentd:circuits"), "list drops expired members from the index");
        assertShared();
    }

    @Test
    void aLiveLeaseKeepsTheRecordBeyondItsIdleTime() throws Exception {
        CircuitTimings brief = new CircuitTimings(1, 1_500, MINUTE);
        open(state, "p/m", brief);
        await().until(() -> state.circuits().admit("p/m", "s1", brief) instanceof Admission.Probe);
        long ttl = Long.parseLong(server.cli("PTTL", "agentd:circuit:p/m"));
        assertTrue(ttl > MINUTE - 10_000, "the TTL covers the lease: " + ttl);
        assertInstanceOf(Admission.Open.class, state.circuits().admit("p/m", "s2", brief));
    }

    @Test
    void credentialBlocksNeverShortenAndExpire() throws Exception {
        CredentialId id = new CredentialId("anthropic", "0f".repeat(16));
        assertEquals(0, state.credentialBlocks().blockedForMs(id));
        state.credentialBlocks().block(id, MINUTE);
        long left = state.credentialBlocks().blockedForMs(id);
        assertTrue(left > MINUTE - 10_000 && left <= MINUTE, "blocked for " + left);
        state.credentialBlocks().block(id, 1_000);
        assertTrue(state.credentialBlocks().blockedForMs(id) > 10_000, "a shorter block never shortens");
        long ttl = Long.parseLong(server.cli("PTTL", "agentd:cred:anthropic:" + id.hash()));
        assertTrue(ttl > MINUTE - 10_000 && ttl <= MINUTE, "TTL to the block's end: " + ttl);

        CredentialId brief = new CredentialId("openai", "aa".repeat(16));
        state.credentialBlocks().block(brief, 30);
        await().until(() -> state.credentialBlocks().blockedForMs(brief) == 0);
        await().until(() -> server.cli("EXISTS", "agentd:cred:openai:" + brief.hash()).equals("0"));
        assertShared();
    }

    @Test
    void twoClientsShareOneState() {
        RedisState other = connect(new RecordingLocal());
        open(state, "p/m", new CircuitTimings(MINUTE, 10 * MINUTE, MINUTE));
        assertInstanceOf(Admission.Open.class, other.circuits().admit("p/m", "s9", EXAMPLE));
        CredentialId id = new CredentialId("anthropic", "bb".repeat(16));
        other.credentialBlocks().block(id, MINUTE);
        assertTrue(state.credentialBlocks().blockedForMs(id) > 0);
    }

    @Test
    void theServersClockDecidesNotTheClients() throws Exception {
        // Both clients' injected clocks are far off (and disagree): nothing reads them.
        scheduler.setWallClock(86_400_000L);
        CredentialId id = new CredentialId("anthropic", "cc".repeat(16));
        state.credentialBlocks().block(id, MINUTE);
        long until = Long.parseLong(server.cli("GET", "agentd:cred:anthropic:" + id.hash()));
        long serverNow = serverTimeMs();
        assertTrue(until > serverNow && until <= serverNow + MINUTE, "until " + until + " vs server " + serverNow);
        FakeScheduler elsewhere = new FakeScheduler();
        elsewhere.setWallClock(4_000_000_000_000L);
        RedisState skewed = new RedisState(RedisEndpoint.parse(server.url()), "agentd:", 200, 1_000,
                new RecordingLocal(), elsewhere);
        states.add(skewed);
        long seen = skewed.credentialBlocks().blockedForMs(id);
        assertTrue(seen > MINUTE - 10_000 && seen <= MINUTE, "the skewed client agrees: " + seen);
    }

    @Test
    void scriptsAreSentAgainAfterScriptFlush() throws Exception {
        open(state, "p/m", EXAMPLE);
        assertEquals("OK", server.cli("SCRIPT", "FLUSH"));
        assertEquals(2_000, open(state, "p/m", EXAMPLE));
        assertInstanceOf(Admission.Open.class, state.circuits().admit("p/m", "s1", EXAMPLE));
        assertEquals(0, state.warningsLogged());
        assertShared();
    }

    private long serverTimeMs() throws Exception {
        String[] time = server.cli("TIME").split("\n");
        return Long.parseLong(time[0].trim()) * 1000 + Long.parseLong(time[1].trim()) / 1000;
    }

    /** Waits out a 1 ms cooldown; the first admission after it is {@code owner}'s probe. */
    private static Admission.Probe awaitProbe(RedisState s, String selector, String owner) {
        Admission[] last = new Admission[1];
        await().until(() -> (last[0] = s.circuits().admit(selector, owner, SHORT_OPEN)) instanceof Admission.Probe);
        return (Admission.Probe) last[0];
    }
}
