package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.FallbackRig.RECOVERY_EVENTS;
import static dev.agentd.server.e2e.FallbackRig.alphaCreditBalance;
import static dev.agentd.server.e2e.FallbackRig.alphaOverloaded;
import static dev.agentd.server.e2e.FallbackRig.alphaText;
import static dev.agentd.server.e2e.FallbackRig.betaRejectedKey;
import static dev.agentd.server.e2e.FallbackRig.betaServerError;
import static dev.agentd.server.e2e.FallbackRig.betaText;
import static dev.agentd.server.e2e.FallbackRig.modelsAsked;
import static dev.agentd.server.e2e.FallbackRig.retrySettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Model fallback (FALLBACK.md, issue 13) through the real jar over HTTP: two providers of different
 * APIs on fake servers (see {@link FallbackRig}), request counts per provider, the event order on
 * both dialects, pins, skips, revert, the escape hatches and the session file. The privacy of
 * fallback.log is {@link FallbackLogIT}.
 */
class FallbackIT {

    @TempDir
    Path dir;
    FallbackRig rig;

    @AfterEach
    void tearDown() {
        if (rig != null) {
            rig.closeCheckingStdout();
        }
    }

    private FallbackRig start(String settings, boolean jsonRpc, Map<String, String> env, String... args)
            throws IOException {
        rig = new FallbackRig(dir, settings);
        List<String> all = new java.util.ArrayList<>(List.of("--model", "alpha/alpha-1"));
        all.addAll(List.of(args));
        rig.start(jsonRpc, env, all.toArray(String[]::new));
        assumeServerHasFallback(rig);
        return rig;
    }

    private FallbackRig start(String settings, String... args) throws IOException {
        return start(settings, false, Map.of(), args);
    }

    /** Skips (does not fail) against a daemon built before the fallback commands existed. */
    static void assumeServerHasFallback(FallbackRig rig) throws IOException {
        JsonNode state = rig.call("get_fallback_state");
        assumeFalse(!state.path("success").asBoolean() && state.path("error").asText().contains("not available"),
                "this daemon has no model fallback yet: " + state);
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(event -> event.path("type").asText()).toList();
    }

    @ParameterizedTest(name = "jsonrpc={0}")
    @ValueSource(booleans = {false, true})
    void transientExhaustionWalksToTheNextRungAndSucceeds(boolean jsonRpc) throws IOException {
        start(retrySettings(2, FallbackRig.ONE_RUNG), jsonRpc, Map.of(), "--no-session");
        rig.alpha.enqueue(alphaOverloaded(), alphaOverloaded(), alphaOverloaded());
        rig.beta.enqueue(betaText("Beta answers."));

        int from = rig.promptAndSettle("hello");

        assertEquals(List.of("alpha-1", "alpha-1", "alpha-1"), modelsAsked(rig.alpha), "1 + maxRetries on the primary");
        assertEquals(List.of("beta-1"), modelsAsked(rig.beta));
        assertEquals("/v1/messages", rig.alpha.lastRequest().path());
        assertEquals("/chat/completions", rig.beta.lastRequest().path());
        List<JsonNode> recovery = rig.events(from, RECOVERY_EVENTS);
        FallbackRig.capture("transient-" + (jsonRpc ? "jsonrpc" : "rpc"), recovery);
        assertEquals(List.of("auto_retry_start", "auto_retry_start", "model_changed", "retry_fallback_applied",
                "auto_retry_start", "retry_fallback_succeeded", "auto_retry_end"), types(recovery),
                recovery.toString());
        assertEquals(List.of(1, 2), List.of(recovery.get(0).path("attempt").asInt(), recovery.get(1).path("attempt").asInt()));
        assertEquals("fallback", recovery.get(2).path("source").asText(), recovery.get(2).toString());
        assertEquals("beta-1", recovery.get(2).path("model").path("id").asText());
        JsonNode applied = recovery.get(3);
        assertEquals("alpha/alpha-1", applied.path("from").asText());
        assertEquals("beta/beta-1", applied.path("to").asText());
        assertEquals("alpha/alpha-1", applied.path("chainKey").asText());
        assertEquals("transient", applied.path("reason").asText());
        assertFalse(applied.has("limit"), "no usage limit caused it");
        assertEquals(0, recovery.get(4).path("delayMs").asLong(), "the retry after a switch does not wait");
        JsonNode succeeded = recovery.get(5);
        assertEquals("beta/beta-1", succeeded.path("model").asText());
        assertEquals("alpha/alpha-1", succeeded.path("chainKey").asText());
        assertTrue(recovery.get(6).path("success").asBoolean());
        JsonNode last = rig.events(from, "agent_end").get(rig.events(from, "agent_end").size() - 1);
        JsonNode reply = last.path("messages").get(last.path("messages").size() - 1);
        assertEquals("Beta answers.", reply.path("content").path(0).path("text").asText());
        assertEquals("beta/beta-1", rig.model());

        JsonNode state = rig.data("get_fallback_state");
        FallbackRig.capture("state-" + (jsonRpc ? "jsonrpc" : "rpc"), List.of(state));
        assertEquals("alpha/alpha-1", state.path("active").path("chainKey").asText(), state.toString());
        assertEquals("alpha/alpha-1", state.path("active").path("originalSelector").asText());
        assertFalse(state.path("active").path("pinned").asBoolean());
        assertTrue(state.path("cooldowns").toString().contains("alpha/alpha-1"), "the primary cools: " + state);
    }

    @Test
    void aFullyFailingChainCostsItsBudgetAndEndsOnce() throws IOException {
        int maxRetries = 2;
        start(retrySettings(maxRetries, "\"fallbackChains\":{\"alpha/alpha-1\":[\"beta/beta-1\",\"alpha/alpha-2\"]}"),
                "--no-session");
        for (int i = 0; i < 5; i++) {
            rig.alpha.enqueue(alphaOverloaded());
        }
        rig.beta.enqueue(betaServerError(), betaServerError());

        int from = rig.promptAndSettle("hello");

        int rungs = 2;
        assertEquals(1 + (rungs + 1) * maxRetries, rig.alpha.requestCount() + rig.beta.requestCount());
        assertEquals(List.of("alpha-1", "alpha-1", "alpha-1", "alpha-2", "alpha-2"), modelsAsked(rig.alpha));
        assertEquals(List.of("beta-1", "beta-1"), modelsAsked(rig.beta));
        List<JsonNode> applied = rig.events(from, "retry_fallback_applied");
        assertEquals(List.of("beta/beta-1", "alpha/alpha-2"), applied.stream().map(e -> e.path("to").asText()).toList());
        List<JsonNode> exhausted = rig.events(from, "retry_fallback_exhausted");
        assertEquals(1, exhausted.size());
        assertEquals("alpha/alpha-1", exhausted.get(0).path("chainKey").asText());
        assertTrue(exhausted.get(0).path("lastError").asText().contains("Overloaded"), exhausted.toString());
        List<JsonNode> ends = rig.events(from, "auto_retry_end");
        assertEquals(1, ends.size(), ends.toString());
        assertFalse(ends.get(0).path("success").asBoolean());
        FallbackRig.capture("exhausted", rig.events(from, RECOVERY_EVENTS));
        List<String> order = types(rig.events(from, RECOVERY_EVENTS));
        assertEquals("auto_retry_end", order.get(order.size() - 1), order.toString());
        assertEquals("retry_fallback_exhausted", order.get(order.size() - 2), order.toString());
        assertEquals(0, rig.events(from, "retry_fallback_succeeded").size());
    }

    @Test
    void billingSwitchesAtOnceAndPinsTheFallback() throws IOException {
        start(retrySettings(3, FallbackRig.ONE_RUNG), "--no-session");
        rig.alpha.enqueue(alphaCreditBalance());
        rig.beta.enqueue(betaText("Beta pays."), betaText("Still beta."));

        int from = rig.promptAndSettle("hello");
        assertEquals(1, rig.alpha.requestCount(), "no same-model retry of a billing failure");
        JsonNode applied = rig.events(from, "retry_fallback_applied").get(0);
        assertEquals("billing", applied.path("reason").asText());
        assertTrue(rig.events(from, "auto_retry_start").stream().allMatch(start -> start.path("delayMs").asLong() == 0));
        JsonNode active = rig.data("get_fallback_state").path("active");
        assertTrue(active.path("pinned").asBoolean(), active.toString());
        assertEquals("billing", active.path("pinReason").asText());

        int second = rig.promptAndSettle("again");
        assertEquals(1, rig.alpha.requestCount(), "a billing pin never goes back to the primary");
        assertEquals(List.of("beta-1", "beta-1"), modelsAsked(rig.beta));
        assertEquals(List.of(), rig.events(second, "retry_fallback_reverted"));
        assertEquals("beta/beta-1", rig.model());
    }

    @Test
    void aRejectedCredentialSkipsEveryRungOfItsProvider() throws IOException {
        start(retrySettings(0, "\"fallbackChains\":{\"alpha/alpha-1\":[\"beta/beta-1\",\"beta/beta-2\",\"alpha/alpha-2\"]}"),
                "--no-session");
        rig.alpha.enqueue(alphaOverloaded(), alphaText("Alpha two answers."));
        rig.beta.enqueue(betaRejectedKey());

        int from = rig.promptAndSettle("hello");

        assertEquals(List.of("alpha-1", "alpha-2"), modelsAsked(rig.alpha));
        assertEquals(List.of("beta-1"), modelsAsked(rig.beta), "beta-2 shares the rejected credential");
        List<JsonNode> applied = rig.events(from, "retry_fallback_applied");
        assertEquals(List.of("alpha/alpha-1>beta/beta-1", "beta/beta-1>alpha/alpha-2"),
                applied.stream().map(e -> e.path("from").asText() + ">" + e.path("to").asText()).toList());
        assertEquals("alpha/alpha-2", rig.model());
        assertTrue(rig.events(from, "auto_retry_end").get(0).path("success").asBoolean());
    }

    @ParameterizedTest(name = "policy={0}")
    @ValueSource(strings = {"cooldown-expiry", "never"})
    void theFallbackRevertsAfterThePrimarysCooldownUnlessThePolicyIsNever(String policy) throws IOException {
        // The switch also opens the primary's circuit, which then decides the revert (FALLBACK §6):
        // a 1 s circuit that the 5 s Retry-After floors ends with the cooldown, not after 60 s.
        start(retrySettings(0, FallbackRig.ONE_RUNG + ",\"fallbackRevertPolicy\":\"" + policy + "\"")
                .replaceFirst("}$", ",\"fallback\":{\"circuitCooldownMs\":1000}}"), "--no-session");
        // Retry-After sets the primary's cooldown (FALLBACK §5.4): short, so the test need not wait
        // long, yet far longer than the zero-delay hop to beta takes even on a machine whose cores
        // are busy (the boundary after that hop must still find the primary cooling; 2 s was a
        // window such a machine could miss)
        rig.alpha.enqueue(FallbackRig.alphaOverloadedRetryAfter(5_000), alphaText("Alpha is back."));
        rig.beta.enqueue(betaText("Beta meanwhile."), betaText("Beta stays."));
        rig.promptAndSettle("hello");
        assertEquals("beta/beta-1", rig.model());
        assertEquals(policy, rig.data("get_fallback_state").path("revertPolicy").asText());

        rig.awaitNoCooldown("alpha/alpha-1");
        int second = rig.promptAndSettle("again");

        List<JsonNode> reverted = rig.events(second, "retry_fallback_reverted");
        if (policy.equals("never")) {
            assertEquals(List.of(), reverted);
            assertEquals(List.of("beta-1", "beta-1"), modelsAsked(rig.beta));
            assertEquals(1, rig.alpha.requestCount());
            assertEquals("beta/beta-1", rig.model());
            assertFalse(rig.data("get_fallback_state").path("active").isMissingNode());
            return;
        }
        assertEquals(1, reverted.size());
        assertEquals("beta/beta-1", reverted.get(0).path("from").asText());
        assertEquals("alpha/alpha-1", reverted.get(0).path("to").asText());
        List<JsonNode> changes = rig.events(second, "model_changed");
        assertEquals("fallback-revert", changes.get(0).path("source").asText(), changes.toString());
        assertEquals(List.of("alpha-1", "alpha-1"), modelsAsked(rig.alpha), "the second prompt went to the primary");
        assertEquals(1, rig.beta.requestCount());
        assertEquals("alpha/alpha-1", rig.model());
        assertTrue(rig.data("get_fallback_state").path("active").isMissingNode()
                || rig.data("get_fallback_state").path("active").isNull());
    }

    @Test
    void aManualModelChangeEndsTheEpisode() throws IOException {
        start(retrySettings(0, FallbackRig.ONE_RUNG), "--no-session");
        rig.alpha.enqueue(alphaOverloaded(), alphaText("Alpha again, by request."));
        rig.beta.enqueue(betaText("Beta meanwhile."));
        rig.promptAndSettle("hello");
        assertEquals("beta/beta-1", rig.model());

        int from = rig.events().size();
        rig.data("set_model", "provider", "alpha", "modelId", "alpha-1");
        JsonNode state = rig.data("get_fallback_state");
        assertTrue(state.path("active").isMissingNode() || state.path("active").isNull(), state.toString());
        assertFalse(state.path("cooldowns").toString().contains("alpha/alpha-1"),
                "choosing a model clears its cooldown: " + state);
        int second = rig.promptAndSettle("back to alpha");

        assertEquals(List.of("alpha-1", "alpha-1"), modelsAsked(rig.alpha));
        assertEquals(List.of(), rig.events(from, "retry_fallback_reverted"), "a user's choice is no revert");
        assertEquals(List.of(), rig.events(second, "retry_fallback_applied"));
        assertEquals("alpha/alpha-1", rig.model());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--no-model-fallback", "AGENTD_NO_FALLBACK=1"})
    void theEscapeHatchesDisableSwitchingForTheRun(String how) throws IOException {
        boolean flag = how.startsWith("--");
        start(retrySettings(1, FallbackRig.ONE_RUNG), false, flag ? Map.of() : Map.of("AGENTD_NO_FALLBACK", "1"),
                flag ? new String[] {"--no-session", how} : new String[] {"--no-session"});
        rig.alpha.enqueue(alphaOverloaded(), alphaOverloaded());
        assertFalse(rig.data("get_fallback_state").path("enabled").asBoolean(true));

        int from = rig.promptAndSettle("hello");

        assertEquals(2, rig.alpha.requestCount(), "plain retries still work");
        assertEquals(0, rig.beta.requestCount());
        assertEquals(List.of("auto_retry_start", "auto_retry_end"), types(rig.events(from, RECOVERY_EVENTS)));
        assertFalse(rig.events(from, "auto_retry_end").get(0).path("success").asBoolean());
        assertEquals("alpha/alpha-1", rig.model());
    }

    @Test
    void theSessionFileRecordsTheSwitchAndContinueRestoresThePrimary() throws Exception {
        start(retrySettings(0, FallbackRig.ONE_RUNG));
        rig.alpha.enqueue(alphaOverloaded());
        rig.beta.enqueue(betaText("Beta answers."));
        rig.promptAndSettle("hello");
        assertEquals("beta/beta-1", rig.model());
        Path file = Path.of(rig.data("get_state").path("sessionFile").asText());
        assertEquals(0, rig.daemon().closeStdinAndWait());

        List<JsonNode> changes = java.nio.file.Files.readAllLines(file).stream().map(FallbackIT::parse)
                .filter(entry -> "model_change".equals(entry.path("type").asText())).toList();
        assertEquals(2, changes.size(), "the session's first model, then the switch: " + changes);
        assertTrue(changes.get(0).path("reason").isMissingNode(), changes.toString());
        assertEquals("alpha-1", changes.get(0).path("modelId").asText());
        JsonNode change = changes.get(1);
        assertEquals("beta", change.path("provider").asText());
        assertEquals("beta-1", change.path("modelId").asText());
        assertEquals("fallback", change.path("reason").asText());
        assertEquals("alpha", change.path("originalProvider").asText());
        assertEquals("alpha-1", change.path("originalModelId").asText());
        JsonNode settings = parse(java.nio.file.Files.readString(rig.agentDir.resolve("settings.json")));
        assertFalse(settings.path("defaultProvider").asText().equals("beta")
                || settings.path("defaultModel").asText().equals("beta-1"),
                "a fallback is not saved as the default model: " + settings);

        rig.start(false, Map.of(), "--continue");
        assertEquals(file.toString(), rig.data("get_state").path("sessionFile").asText());
        assertEquals("alpha/alpha-1", rig.model(), "resume restores the primary");
    }

    private static JsonNode parse(String line) {
        try {
            return dev.agentd.protocol.json.Json.mapper().readTree(line);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
