package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.RedisServer;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet of two: two daemons with different agent directories (as on two machines), each with
 * providers of its own (so each fake server sees only its daemon's requests), and one Redis
 * named by {@code AGENTD_STATE_URL}. What one finds out about a selector or a credential, the
 * other honours; Redis going away costs one warning and no prompt.
 *
 * <p>Expects the wiring of issue 12's integration: {@code cli} reads {@code StateConfig} and
 * opens {@code RedisState} over the file store; the policy admits through {@code Circuits}
 * before each request and opens circuits per FALLBACK §6; {@code AuthStore} blocks and skips
 * credentials through {@code CredentialBlocks} with a fleet-wide keyed hash; get_fallback_state
 * has {@code store: {kind, shared, warning?}}.
 */
class RedisFleetIT {
    private static final String SETTINGS = "{\"retry\":{\"baseDelayMs\":1,\"maxRetries\":1,"
            + "\"fallbackChains\":{\"alpha/alpha-1\":[\"beta/beta-1\"]}},"
            + "\"fallback\":{\"circuitCooldownMs\":600000}}";
    private static final String BETA_KEY_1 = "sk-e2e-fleet-BETA-ONE-9d8Fq2Lw";
    private static final String BETA_KEY_2 = "sk-e2e-fleet-BETA-TWO-4Kx7Pz1M";
    private static final String PASSWORD = "fleet-redis-pw-" + "Qm3v";

    @TempDir
    Path dir;
    private RedisServer redis;
    private FallbackRig one;
    private FallbackRig two;

    @BeforeEach
    void fleet() throws Exception {
        assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
        redis = RedisServer.start(Files.createDirectories(dir.resolve("redis")), Optional.of(PASSWORD));
        one = rig("one");
        two = rig("two");
        Map<String, String> env = Map.of("AGENTD_STATE_URL", redis.url());
        one.start(false, env);
        two.start(false, env);
    }

    private FallbackRig rig(String name) throws Exception {
        FallbackRig rig = new FallbackRig(Files.createDirectories(dir.resolve(name)), SETTINGS);
        // Two beta credentials, the same on both machines, for rotation (SPEC §5.6).
        Files.writeString(rig.agentDir.resolve("auth.json"), "{\"beta\":[{\"type\":\"api_key\",\"key\":\""
                + BETA_KEY_1 + "\"},{\"type\":\"api_key\",\"key\":\"" + BETA_KEY_2 + "\"}]}");
        return rig;
    }

    @AfterEach
    void stop() throws Exception {
        for (FallbackRig rig : new FallbackRig[] {one, two}) {
            if (rig != null) {
                rig.close();
            }
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aCircuitOpenedByOneIsHonouredByTheOthersNextPrompt() throws Exception {
        one.data("set_model", "provider", "alpha", "modelId", "alpha-1");
        openAlphaOn(one);
        int before = two.alpha.requestCount();
        two.beta.enqueue(FallbackRig.betaText("from beta"));
        int from = two.promptAndSettle("hello");
        assertEquals(before, two.alpha.requestCount(), "two never asks a provider one found down");
        assertEquals("beta/beta-1", two.model());
        assertFalse(two.events(from, "agent_end").isEmpty());
        assertNoSecretInRedis();
    }

    @Test
    void aCredentialBlockedByOneIsNotUsedByTheOther() throws Exception {
        one.data("set_model", "provider", "beta", "modelId", "beta-1");
        two.data("set_model", "provider", "beta", "modelId", "beta-1");
        one.beta.enqueue(usageLimit(), FallbackRig.betaText("rotated"));
        one.promptAndSettle("hello");
        List<String> keysOne = keysUsed(one.beta);
        assertEquals(2, keysOne.size(), keysOne.toString());
        String blocked = keysOne.get(0);
        assertTrue(!blocked.equals(keysOne.get(1)), "one rotated to the other key");

        two.beta.enqueue(FallbackRig.betaText("fine"));
        two.promptAndSettle("hello");
        assertFalse(keysUsed(two.beta).contains(blocked), "two skips the key one found at its limit");
        assertNoSecretInRedis();
    }

    @Test
    void redisKilledWhilePromptsRunThenBackSharesAgain() throws Exception {
        one.beta.enqueue(FakeProviderServer.sse(OpenAiWire.textReply("slow")).withDelay(300));
        one.data("set_model", "provider", "beta", "modelId", "beta-1");
        int running = one.events().size();
        one.call("prompt", "message", "during the outage");
        redis.kill();
        one.awaitEvent("agent_end", running); // the prompt that was running when Redis died ends
        two.alpha.enqueue(FallbackRig.alphaText("still fine")); // two is on alpha, one on beta
        one.beta.enqueue(FallbackRig.betaText("still fine"));
        two.promptAndSettle("while redis is down");
        one.promptAndSettle("and again");
        for (FallbackRig rig : new FallbackRig[] {one, two}) {
            JsonNode store = rig.data("get_fallback_state").path("store");
            assertEquals("redis", store.path("kind").asText());
            assertFalse(store.path("shared").asBoolean(), store.toString());
            assertFalse(store.toString().contains(PASSWORD));
            assertEquals(1, warnings(rig), rig.daemon().stderr());
            assertFalse(rig.daemon().stderr().contains(PASSWORD));
        }

        redis.start();
        for (FallbackRig rig : new FallbackRig[] {one, two}) {
            // The daemons reconnect on their own, within their backoff (at most 5 s).
            Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
                return rig.data("get_fallback_state").path("store").path("shared").asBoolean();
            });
        }
        one.data("set_model", "provider", "alpha", "modelId", "alpha-1");
        openAlphaOn(one);
        int before = two.alpha.requestCount();
        two.beta.enqueue(FallbackRig.betaText("from beta"));
        two.promptAndSettle("after the outage");
        assertEquals(before, two.alpha.requestCount(), "sharing resumed without restarting the daemons");
        assertEquals(1, warnings(one));
    }

    /** alpha/alpha-1 overloaded twice (the whole budget) on {@code rig}: it switches and opens the circuit. */
    private static void openAlphaOn(FallbackRig rig) throws Exception {
        rig.alpha.enqueue(FallbackRig.alphaOverloaded(), FallbackRig.alphaOverloaded());
        rig.beta.enqueue(FallbackRig.betaText("switched"));
        int from = rig.promptAndSettle("hello");
        assertFalse(rig.events(from, "retry_fallback_applied").isEmpty(), "one switched");
        JsonNode circuits = rig.data("get_fallback_state").path("circuits");
        assertTrue(circuits.toString().contains("alpha/alpha-1"), circuits.toString());
    }

    private static FakeProviderServer.Reply usageLimit() {
        return FakeProviderServer.json(429, OpenAiWire.errorBody("The usage limit has been reached",
                "usage_limit_reached", null), Map.of("retry-after-ms", "600000"));
    }

    private static List<String> keysUsed(FakeProviderServer server) {
        return server.requests().stream().map(r -> r.header("authorization")).toList();
    }

    private static long warnings(FallbackRig rig) {
        return rig.daemon().stderr().lines().filter(line -> line.contains("unreachable")).count();
    }

    private void assertNoSecretInRedis() throws Exception {
        Map<String, String> all = redis.dump();
        assertFalse(all.isEmpty(), "something was shared");
        for (Map.Entry<String, String> entry : all.entrySet()) {
            String text = entry.getKey() + " " + entry.getValue();
            for (String secret : List.of(BETA_KEY_1, BETA_KEY_2, FallbackRig.ALPHA_KEY, PASSWORD)) {
                assertFalse(text.contains(secret), "a secret in " + entry.getKey());
            }
        }
    }
}
