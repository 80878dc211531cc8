package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.FallbackRig.ALPHA_KEY;
import static dev.agentd.server.e2e.FallbackRig.BETA_KEY;
import static dev.agentd.server.e2e.FallbackRig.betaText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.http.FakeProviderServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Circuit breakers shared by every agentd on one agent directory (FALLBACK §6, issue 14), through
 * the real jar over HTTP: daemon A finds the primary down and opens its circuit in
 * {@code circuits.json}; daemon B, started afterwards on the same directory and the same primary,
 * goes straight to the fallback without the primary's server seeing a request.
 */
class CircuitIT {
    /** One retry per rung; a long circuit so a slow machine never sees it expire mid-test. */
    private static final String SETTINGS = """
            {"retry":{"baseDelayMs":1,"maxRetries":1,"fallbackChains":{"alpha/alpha-1":["beta/beta-1"]}},
             "fallback":{"circuitCooldownMs":600000}}
            """;

    @TempDir
    Path dir;
    FallbackRig rig;
    DaemonProcess first;

    @AfterEach
    void tearDown() {
        if (first != null) {
            first.close();
            assertEquals(List.of(), first.nonJsonLines(), "stdout carries only protocol records");
        }
        if (rig != null) {
            rig.closeCheckingStdout();
        }
    }

    private static FakeProviderServer.Reply alphaUnavailable() {
        return FakeProviderServer.json(503, AnthropicWire.errorBody("api_error", "Service Unavailable"), Map.of());
    }

    private static JsonNode circuit(JsonNode state, String selector) {
        for (JsonNode circuit : state.path("circuits")) {
            if (selector.equals(circuit.path("selector").asText())) {
                return circuit;
            }
        }
        throw new AssertionError("no circuit for " + selector + " in " + state);
    }

    @Test
    void aCircuitOneDaemonOpenedSendsTheNextDaemonStraightToTheFallback() throws Exception {
        rig = new FallbackRig(dir, SETTINGS);
        first = rig.start("--model", "alpha/alpha-1", "--no-session");
        FallbackIT.assumeServerHasFallback(rig);

        // A: the primary fails through its budget (1 + 1 retry), the chain switches and opens its circuit
        rig.alpha.enqueue(alphaUnavailable(), alphaUnavailable());
        rig.beta.enqueue(betaText("Beta answers A."));
        int from = rig.promptAndSettle("hello from A");
        assertEquals(2, rig.alpha.requests().size());
        assertEquals(1, rig.beta.requests().size());
        List<JsonNode> opened = rig.events(from, "fallback_circuit_opened");
        assertEquals(1, opened.size(), rig.events().toString());
        assertEquals("alpha/alpha-1", opened.get(0).path("selector").asText());
        assertEquals(600_000, opened.get(0).path("durationMs").asLong());
        JsonNode listed = circuit(rig.data("get_fallback_state"), "alpha/alpha-1");
        assertEquals("open", listed.path("state").asText());
        assertTrue(listed.path("remainingMs").asLong() > 0, listed.toString());

        Path file = rig.agentDir.resolve("circuits.json");
        String shared = Files.readString(file);
        assertTrue(shared.contains("alpha/alpha-1"), shared);
        assertFalse(shared.contains(ALPHA_KEY) || shared.contains(BETA_KEY), "no key in the shared file");

        // B: a second daemon on the same directory, started on the primary, never asks it
        rig.start("--model", "alpha/alpha-1", "--no-session");
        rig.beta.enqueue(betaText("Beta answers B."));
        from = rig.promptAndSettle("hello from B");
        assertEquals(2, rig.alpha.requests().size(), "the primary's server saw no request from B");
        assertEquals(2, rig.beta.requests().size());
        List<JsonNode> applied = rig.events(from, "retry_fallback_applied");
        assertEquals(1, applied.size(), rig.events(from, FallbackRig.RECOVERY_EVENTS).toString());
        assertEquals("alpha/alpha-1", applied.get(0).path("from").asText());
        assertEquals("beta/beta-1", applied.get(0).path("to").asText());
        assertEquals(List.of(), rig.events(from, "fallback_circuit_opened"), "a skip opens nothing");
        assertEquals("beta/beta-1", rig.model());
        assertEquals("open", circuit(rig.data("get_fallback_state"), "alpha/alpha-1").path("state").asText());
    }
}
