package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.FallbackRig.alphaText;
import static dev.agentd.server.e2e.FallbackRig.betaText;
import static dev.agentd.server.e2e.FallbackRig.modelsAsked;
import static dev.agentd.server.e2e.FallbackRig.retrySettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.http.FakeProviderServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server hints set the wait, the 429 tiers and probe-back (SPEC §5.5, FALLBACK §4, §5.5) through
 * the real jar over HTTP. Waits are asserted from the provider's side (the gap between the
 * requests it saw) and only as lower bounds: a loaded machine may wait longer, never shorter.
 */
class HintTiersIT {
    /** Lower bounds leave 5% for clock granularity between the daemon's timer and the server's stamp. */
    private static final double SLACK = 0.95;

    @TempDir
    Path dir;
    FallbackRig rig;

    @AfterEach
    void tearDown() {
        if (rig != null) {
            rig.closeCheckingStdout();
        }
    }

    private FallbackRig start(String settings) throws IOException {
        rig = new FallbackRig(dir, settings);
        rig.start("--model", "alpha/alpha-1", "--no-session");
        FallbackIT.assumeServerHasFallback(rig);
        return rig;
    }

    private static FakeProviderServer.Reply alphaRateLimited(String header, String value) {
        return FakeProviderServer.json(429, AnthropicWire.errorBody("rate_limit_error",
                "Number of request tokens has exceeded your per-minute rate limit"), Map.of(header, value));
    }

    private static FakeProviderServer.Reply alphaOverloadedRetryAfterSeconds(String seconds) {
        return FakeProviderServer.json(529, AnthropicWire.errorBody("overloaded_error", "Overloaded"),
                Map.of("retry-after", seconds));
    }

    /** Milliseconds between request {@code a} and request {@code b} as the server saw them. */
    private static long gapMs(FakeProviderServer server, int a, int b) {
        List<Long> arrivals = server.arrivalNanos();
        return (arrivals.get(b) - arrivals.get(a)) / 1_000_000;
    }

    private void assertWaitedTheHint(long hintMs) {
        assertEquals(List.of("alpha-1", "alpha-1"), modelsAsked(rig.alpha));
        List<JsonNode> starts = rig.events(0, "auto_retry_start");
        assertEquals(1, starts.size(), starts.toString());
        Jittered.assertDelay(hintMs, starts.get(0).path("delayMs").asLong(), "the announced delay is the server's hint");
        long gap = gapMs(rig.alpha, 0, 1);
        assertTrue(gap >= hintMs * SLACK, "the provider saw the retry only " + gap + " ms later");
        assertTrue(rig.events(0, "auto_retry_end").get(0).path("success").asBoolean());
    }

    @Test
    void a429WithATwoSecondHintAndNoChainWaitsTheHint() throws IOException {
        start(retrySettings(3, ""));
        rig.alpha.enqueue(alphaRateLimited("retry-after", "2"), alphaText("Alpha answers."));
        rig.promptAndSettle("hello");
        assertWaitedTheHint(2000);
    }

    @Test
    void a529WithRetryAfterWaitsTheHint() throws IOException {
        start(retrySettings(3, ""));
        rig.alpha.enqueue(alphaOverloadedRetryAfterSeconds("2"), alphaText("Alpha answers."));
        rig.promptAndSettle("hello");
        assertWaitedTheHint(2000);
    }

    @Test
    void tier1WaitsTheWholeHintOnTheSameModelThoughAChainIsConfigured() throws IOException {
        start(retrySettings(3, FallbackRig.ONE_RUNG));
        rig.alpha.enqueue(alphaRateLimited("retry-after-ms", "2000"), alphaText("Alpha answers."));
        rig.promptAndSettle("hello");
        assertEquals(List.of("alpha-1", "alpha-1"), modelsAsked(rig.alpha));
        assertEquals(0, rig.beta.requestCount(), "a hint within the cap is waited out, not switched away from");
        List<JsonNode> starts = rig.events(0, "auto_retry_start");
        Jittered.assertDelay(2000, starts.get(0).path("delayMs").asLong(), "a tier-1 wait is the whole hint, never half");
        long gap = gapMs(rig.alpha, 0, 1);
        assertTrue(gap >= 2000 * SLACK, "the provider saw the retry only " + gap + " ms later");
        assertEquals(List.of(), rig.events(0, "retry_fallback_applied"));
        assertEquals("alpha/alpha-1", rig.model());
    }

    @Test
    void tier2SwitchesProbesTheDemotedModelAndTheNextPromptReverts() throws IOException {
        // cap 1 s < hint 4 s < probeBackMaxMs: tier 2; the probe is due 2 s after the 429
        start(retrySettings(3, FallbackRig.ONE_RUNG + ",\"hintedWaitCapMs\":1000"));
        rig.alpha.enqueue(alphaRateLimited("retry-after", "4"), alphaText("OK"), alphaText("Alpha is back."));
        rig.beta.enqueue(betaText("Beta meanwhile."));

        int first = rig.promptAndSettle("hello");
        assertEquals(List.of("beta-1"), modelsAsked(rig.beta), "tier 2 switches at once");
        assertEquals(0, rig.events(first, "auto_retry_start").get(0).path("delayMs").asLong());
        JsonNode scheduled = rig.awaitEvent("retry_probe_scheduled", first);
        assertEquals("alpha/alpha-1", scheduled.path("selector").asText());
        assertEquals(1, scheduled.path("probeIndex").asInt());
        assertTrue(scheduled.path("atMs").asLong() > 0, scheduled.toString());
        assertTrue(rig.data("get_fallback_state").path("cooldowns").toString().contains("alpha/alpha-1"),
                "the primary cools for the whole hint");

        JsonNode result = rig.awaitEvent("retry_probe_result", first);
        assertEquals("alpha/alpha-1", result.path("selector").asText());
        assertTrue(result.path("ok").asBoolean(), result.toString());
        FakeProviderServer.RecordedRequest probe = rig.alpha.requests().get(1);
        assertEquals(1, probe.json().path("max_tokens").asInt(), "a one-token probe: " + probe.body());
        assertTrue(!probe.json().has("tools"), "the probe carries no tools");
        long gap = gapMs(rig.alpha, 0, 1);
        assertTrue(gap >= 2000 * SLACK, "the probe went out only " + gap + " ms after the 429");

        int second = rig.promptAndSettle("again");
        List<JsonNode> reverted = rig.events(second, "retry_fallback_reverted");
        assertEquals(1, reverted.size(), rig.events(second, FallbackRig.RECOVERY_EVENTS).toString());
        assertEquals("beta/beta-1", reverted.get(0).path("from").asText());
        assertEquals("alpha/alpha-1", reverted.get(0).path("to").asText());
        assertEquals(List.of("alpha-1", "alpha-1", "alpha-1"), modelsAsked(rig.alpha), "the next prompt is the primary's");
        assertEquals(1, rig.beta.requestCount());
        assertEquals("alpha/alpha-1", rig.model());
        assertEquals(1, rig.events(0, "retry_probe_result").size(), "one probe answered: no second probe");
    }
}
