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
import dev.agentd.server.state.StoreStatus;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Races, outages and secrets: each test with a redis-server of its own. */
class RedisStateFailureTest {
    private static final long MINUTE = 60_000;
    private static final CircuitTimings SHORT_OPEN = new CircuitTimings(1, MINUTE, MINUTE);
    /** Bounds that only catch a hang, never a slow machine: the real bound is 200 ms + 1 s per call. */
    private static final long HANG_NANOS = TimeUnit.SECONDS.toNanos(20);

    @TempDir
    Path dir;
    private final FakeScheduler scheduler = new FakeScheduler();
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeEach
    void needRedis() {
        assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private RedisServer server(Optional<String> password) throws Exception {
        RedisServer server = RedisServer.start(dir, password);
        closing.add(server);
        return server;
    }

    private RedisState state(String url, RecordingLocal local) {
        RedisState state = new RedisState(RedisEndpoint.parse(url), "agentd:", 200, 1_000, local, scheduler, 10,
                RedisState.MAX_BACKOFF_MS);
        closing.add(0, state);
        return state;
    }

    @Test
    void twoClientsRacingForTheProbeLeaseNeverBothWin() throws Exception {
        RedisServer server = server(Optional.empty());
        RedisState a = state(server.url(), new RecordingLocal());
        RedisState b = state(server.url(), new RecordingLocal());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 20; round++) {
                String selector = "race/m" + round;
                a.circuits().open(selector, OptionalLong.empty(), SHORT_OPEN);
                await().until(() -> b.circuits().list(SHORT_OPEN).stream()
                        .anyMatch(v -> v.selector().equals(selector) && v.state() == CircuitView.State.HALF_OPEN));
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Admission>> answers = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    RedisState client = i % 2 == 0 ? a : b;
                    String owner = "session-" + i;
                    answers.add(pool.submit(() -> {
                        go.await();
                        return client.circuits().admit(selector, owner, SHORT_OPEN);
                    }));
                }
                go.countDown();
                int probes = 0;
                for (Future<Admission> answer : answers) {
                    if (answer.get(20, TimeUnit.SECONDS) instanceof Admission.Probe) {
                        probes++;
                    }
                }
                assertEquals(1, probes, "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(a.status().shared() && b.status().shared());
    }

    @Test
    void redisKilledMidUseFallsBackWithOneWarningAndSharesAgainWhenBack() throws Exception {
        RedisServer server = server(Optional.empty());
        RecordingLocal local = new RecordingLocal();
        RedisState state = state(server.url(), local);
        CircuitTimings timings = new CircuitTimings(MINUTE, 10 * MINUTE, MINUTE);
        assertEquals(MINUTE, state.circuits().open("p/m", OptionalLong.empty(), timings));
        assertEquals(0, local.calls.get());

        server.kill();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        AtomicInteger answered = new AtomicInteger();
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                calls.add(pool.submit(() -> {
                    long start = System.nanoTime();
                    Admission admission = state.circuits().admit("p/m", "s" + n, timings);
                    state.credentialBlocks().block(new CredentialId("anthropic", "dd".repeat(16)), MINUTE);
                    assertTrue(System.nanoTime() - start < HANG_NANOS, "a call must be bounded");
                    assertInstanceOf(Admission.class, admission);
                    answered.incrementAndGet();
                    return null;
                }));
            }
            for (Future<?> call : calls) {
                call.get(60, TimeUnit.SECONDS); // rethrows any exception of the call
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(40, answered.get());
        assertTrue(local.calls.get() > 0, "the local state stood in");
        StoreStatus down = state.status();
        assertFalse(down.shared());
        assertTrue(down.warning().orElseThrow().contains("unreachable"), down.toString());
        assertEquals(1, state.warningsLogged(), "one warning per outage");

        server.start();
        await().until(() -> {
            scheduler.advance(RedisState.MAX_BACKOFF_MS);
            return state.status().shared();
        });
        int before = local.calls.get();
        state.circuits().open("p/m", OptionalLong.empty(), timings);
        RedisState other = state(server.url(), new RecordingLocal());
        assertInstanceOf(Admission.Open.class, other.circuits().admit("p/m", "s1", timings));
        assertEquals(before, local.calls.get(), "shared again: Redis answers");
        assertEquals(1, state.warningsLogged());
    }

    @Test
    void aServerThatNeverAnswersCostsOneBoundedCallThenNone() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        try (HostileServer silent = new HostileServer((socket, out) -> {
            accepted.incrementAndGet();
            Thread.sleep(60_000);
        })) {
            RecordingLocal local = new RecordingLocal();
            RedisState state = state("redis://127.0.0.1:" + silent.port() + "/0", local);
            state.status();
            assertEquals(0, accepted.get(), "no connection before the first operation");
            long start = System.nanoTime();
            assertEquals(RecordingLocal.LOCAL_MS, state.circuits().open("p/m", OptionalLong.empty(), SHORT_OPEN));
            assertTrue(System.nanoTime() - start < HANG_NANOS);
            assertEquals(1, accepted.get());
            assertEquals(RecordingLocal.LOCAL_MS, state.credentialBlocks()
                    .blockedForMs(new CredentialId("p", "ee".repeat(16))));
            assertEquals(List.of(new CircuitView("local-open", CircuitView.State.OPEN, RecordingLocal.LOCAL_MS)),
                    state.circuits().list(SHORT_OPEN));
            assertEquals(1, accepted.get(), "while down, calls do not touch the network");
            assertEquals(Optional.of("Redis at redis://127.0.0.1:" + silent.port() + "/0 unreachable (timed out); "
                    + "using process-local state until it is back"), state.status().warning());
            assertEquals(1, state.warningsLogged());
        }
    }

    @Test
    void noKeyNorPasswordIsEverWrittenToRedisOrShownInStatus() throws Exception {
        String password = "redis-pw-" + "Zq81xK";
        String apiKey = "sk-ant-api03-" + "SECRETKEYMATERIAL0123456789";
        RedisServer server = server(Optional.of(password));
        RecordingLocal local = new RecordingLocal();
        RedisState state = state(server.url(), local);
        CredentialId id = new CredentialId("anthropic", keyedHash(apiKey));

        state.credentialBlocks().block(id, MINUTE);
        CircuitTimings timings = new CircuitTimings(MINUTE, 10 * MINUTE, MINUTE);
        state.circuits().open("anthropic/claude", OptionalLong.of(5_000), timings);
        state.circuits().open("openai/gpt", OptionalLong.empty(), SHORT_OPEN);
        await().until(() -> state.circuits().admit("openai/gpt", "session-1", SHORT_OPEN) instanceof Admission.Probe);
        assertTrue(state.credentialBlocks().blockedForMs(id) > 0);
        assertEquals(0, local.calls.get(), "authenticated and shared");

        Map<String, String> everything = server.dump();
        assertTrue(everything.containsKey("agentd:cred:anthropic:" + id.hash()), everything.toString());
        assertTrue(everything.containsKey("agentd:circuit:anthropic/claude"), everything.toString());
        for (Map.Entry<String, String> entry : everything.entrySet()) {
            String text = entry.getKey() + " " + entry.getValue();
            for (String secret : List.of(apiKey, apiKey.substring(7, 30), password)) {
                assertFalse(text.contains(secret), "found a secret in " + entry.getKey());
            }
        }
        assertFalse(state.status().toString().contains(password));

        // A wrong password: refused, said so, and the password is not in the status.
        String wrong = "redis://:not-the-" + "pw-Yt55@127.0.0.1:" + server.port() + "/0";
        RedisState refused = state(wrong, new RecordingLocal());
        assertEquals(RecordingLocal.LOCAL_MS, refused.credentialBlocks().blockedForMs(id));
        String warning = refused.status().warning().orElseThrow();
        assertTrue(warning.contains("AUTH refused (WRONGPASS)"), warning);
        assertFalse(warning.contains("pw-Yt55") || warning.contains(password), warning);
    }

    /** What a keyed credential id looks like: HMAC of the key, hex. */
    private static String keyedHash(String apiKey) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec("machine-local-salt".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(apiKey.getBytes(StandardCharsets.UTF_8)));
    }
}
