package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.client.Dialect;
import dev.agentd.client.PromptResult;
import dev.agentd.client.RpcClient;
import dev.agentd.client.RpcException;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every fallback method of the Java client (FALLBACK.md §9) against the real agentd.jar, once per
 * wire dialect: typed results, typed refusals, what lands in the global settings.json, and the
 * typed fallback events of a run that switches (faux models, steps bound to each model).
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Dialect.class)
class FallbackClientIT {
    private static final String OVERLOADED =
            "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";

    @Parameter
    Dialect dialect;
    @TempDir
    Path dir;
    Path agentDir;
    RpcClient client;

    @BeforeEach
    void setUp() throws IOException {
        agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":1,\"maxRetries\":1}}");
        Map<String, String> env = new HashMap<>();
        env.put("AGENTD_DIR", agentDir.toString());
        env.put("AGENTD_FAUX_CHUNK_DELAY_MS", "1");
        for (String key : List.of("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY")) {
            env.put(key, null);
        }
        client = RpcClient.builder().command(DaemonProcess.javaCommand()).args("--no-session", "--model", "faux/faux-1")
                .cwd(dir).env(env).dialect(dialect).build();
        client.start();
        try {
            client.getFallbackState();
        } catch (RpcException e) {
            assumeFalse(e.serverError().contains("not available"), "this daemon has no model fallback yet");
            throw e;
        }
    }

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
    }

    private JsonNode globalSettings() throws IOException {
        return Json.mapper().readTree(Files.readString(agentDir.resolve("settings.json")));
    }

    @Test
    void chainsAreSetListedAndRemoved() throws IOException {
        Results.FallbackState initial = client.getFallbackState();
        assertTrue(initial.enabled());
        assertEquals("cooldown-expiry", initial.revertPolicy());
        assertEquals(List.of(), initial.warnings());
        assertEquals(null, initial.active());

        Results.FallbackState saved = client.setFallbackChain("faux/faux-1", List.of("faux/faux-2"));
        assertEquals(List.of("faux/faux-2"), saved.chains().get("faux/faux-1"), "answered with the new state");
        assertEquals(List.of("faux/faux-2"), client.getFallbackState().chains().get("faux/faux-1"));
        assertEquals("[\"faux/faux-2\"]",
                globalSettings().path("retry").path("fallbackChains").path("faux/faux-1").toString());

        assertFalse(client.removeFallbackChain("faux/faux-1").chains().containsKey("faux/faux-1"));
        assertFalse(client.getFallbackState().chains().containsKey("faux/faux-1"));
        assertTrue(globalSettings().path("retry").path("fallbackChains").path("faux/faux-1").isMissingNode());

        client.setFallbackChain("faux/faux-1", List.of());
        assertEquals("[]", globalSettings().path("retry").path("fallbackChains").path("faux/faux-1").toString(),
                "an empty chain is saved as a tombstone");
    }

    @Test
    void anInvalidChainIsRefusedWithItsWarningsAndNothingIsSaved() throws IOException {
        RpcException refused = assertThrows(RpcException.class,
                () -> client.setFallbackChain("faux/faux-1", List.of("nope/missing")));
        assertTrue(refused.serverError().contains("nope/missing"), refused.serverError());
        assertTrue(globalSettings().path("retry").path("fallbackChains").isMissingNode(), globalSettings().toString());
        assertFalse(client.getFallbackState().chains().containsKey("faux/faux-1"));
    }

    @Test
    void switchingAndThePolicyAreSetAndPersisted() throws IOException {
        client.setModelFallback(false);
        assertFalse(client.getFallbackState().enabled());
        assertFalse(globalSettings().path("retry").path("modelFallback").asBoolean(true));
        client.setModelFallback(true);
        assertTrue(client.getFallbackState().enabled());

        client.setFallbackRevertPolicy("never");
        assertEquals("never", client.getFallbackState().revertPolicy());
        assertEquals("never", globalSettings().path("retry").path("fallbackRevertPolicy").asText());
        assertThrows(RpcException.class, () -> client.setFallbackRevertPolicy("sometimes"));
        assertEquals("never", client.getFallbackState().revertPolicy(), "a refused policy changes nothing");
    }

    @Test
    void aSwitchingRunComesBackAsTypedEventsAndState() {
        client.setFallbackChain("faux/faux-1", List.of("faux/faux-2"));
        client.fauxEnqueue("faux-1", List.of(FauxStep.error(OVERLOADED, 529), FauxStep.error(OVERLOADED, 529)));
        client.fauxEnqueue("faux-2", List.of(FauxStep.text("Faux two answers.")));

        PromptResult result = client.promptAndWait("hi", Duration.ofSeconds(30));

        assertTrue(result.succeeded(), result.toString());
        assertEquals(List.of(new AgentEvent.RetryFallbackApplied("faux/faux-1", "faux/faux-2", "faux/faux-1",
                "transient", null)), result.fallbackSwitches());
        assertTrue(result.events().contains(new AgentEvent.RetryFallbackSucceeded("faux/faux-2", "faux/faux-1")),
                result.events().toString());
        assertEquals("faux-2", client.getState().model().id());
        Results.FallbackState state = client.getFallbackState();
        assertEquals(new Results.FallbackEpisode("faux/faux-1", "faux/faux-1", false, null), state.active());
        assertTrue(state.cooldowns().stream().anyMatch(c -> c.selector().equals("faux/faux-1") && c.remainingMs() > 0),
                state.toString());
    }
}
