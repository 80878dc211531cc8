package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.AnthropicWire;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real daemon with two HTTP providers of different APIs, each on its own fake server:
 * {@code alpha} speaks {@code anthropic-messages} (models alpha-1, alpha-2; its key in models.json)
 * and {@code beta} speaks {@code openai-completions} (models beta-1, beta-2; its key in auth.json).
 * Both keys are distinctive so a test can grep every output for them. Drives either wire dialect
 * with raw JSON lines and gives back the streamed events in order, whatever the framing.
 */
final class FallbackRig implements AutoCloseable {
    static final String ALPHA_KEY = "sk-ant-e2e-fallback-ALPHA-7Q2wX9vK4mZp0s";
    static final String BETA_KEY = "sk-e2e-fallback-BETA-3Hn8Lr5Tq1YcW6d";
    /** The shortest chain: alpha's first model falls back to beta's first. */
    static final String ONE_RUNG = "\"fallbackChains\":{\"alpha/alpha-1\":[\"beta/beta-1\"]}";
    /** The retry, fallback and session event types, the ones whose order the contract fixes. */
    static final Set<String> RECOVERY_EVENTS = Set.of("auto_retry_start", "auto_retry_end", "model_changed",
            "retry_fallback_applied", "retry_fallback_succeeded", "retry_fallback_reverted",
            "retry_fallback_exhausted");

    final FakeProviderServer alpha = FakeProviderServer.start();
    final FakeProviderServer beta = FakeProviderServer.start();
    final Path dir;
    final Path agentDir;
    private final AtomicInteger ids = new AtomicInteger();
    private DaemonProcess daemon;
    private boolean jsonrpc;

    /** Writes models.json, auth.json and {@code settings} (the whole settings.json) under {@code dir}. */
    FallbackRig(Path dir, String settings) throws IOException {
        this.dir = dir;
        this.agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{
                  "alpha":{"baseUrl":"%s","api":"anthropic-messages","apiKey":"%s",
                    "models":[{"id":"alpha-1","contextWindow":200000,"maxTokens":8192},
                              {"id":"alpha-2","contextWindow":200000,"maxTokens":8192}]},
                  "beta":{"baseUrl":"%s","api":"openai-completions",
                    "models":[{"id":"beta-1","contextWindow":128000,"maxTokens":4096},
                              {"id":"beta-2","contextWindow":128000,"maxTokens":4096}]}}}
                """.formatted(alpha.baseUrl(), ALPHA_KEY, beta.baseUrl()));
        Files.writeString(agentDir.resolve("auth.json"),
                "{\"beta\":{\"type\":\"api_key\",\"key\":\"" + BETA_KEY + "\"}}");
        Files.writeString(agentDir.resolve("settings.json"), settings);
    }

    /** {@code {"retry":{…}}} with a short base delay, {@code maxRetries} and the given chains/extra keys. */
    static String retrySettings(int maxRetries, String extra) {
        return "{\"retry\":{\"baseDelayMs\":1,\"maxRetries\":" + maxRetries + (extra.isEmpty() ? "" : "," + extra)
                + "}}";
    }

    /** Starts the daemon on alpha/alpha-1 ({@code args} may add more, e.g. --continue). */
    DaemonProcess start(boolean jsonRpc, Map<String, String> env, String... args) throws IOException {
        List<String> all = new ArrayList<>();
        if (jsonRpc) {
            all.addAll(List.of("--mode", "jsonrpc"));
        }
        all.addAll(List.of(args));
        this.jsonrpc = jsonRpc;
        this.daemon = DaemonProcess.start(agentDir, dir, env, all.toArray(String[]::new));
        awaitEvent("ready", 0);
        return daemon;
    }

    DaemonProcess start(String... args) throws IOException {
        return start(false, Map.of(), args);
    }

    DaemonProcess daemon() {
        return daemon;
    }

    // --- replies in the providers' real formats ----------------------------------------------

    static FakeProviderServer.Reply alphaText(String text) {
        return FakeProviderServer.sse(AnthropicWire.textReply(text));
    }

    static FakeProviderServer.Reply alphaOverloaded() {
        return FakeProviderServer.json(529, AnthropicWire.errorBody("overloaded_error", "Overloaded"), Map.of());
    }

    /** An overload that says when to come back ({@code retry-after-ms}, SPEC §5.5). */
    static FakeProviderServer.Reply alphaOverloadedRetryAfter(long ms) {
        return FakeProviderServer.json(529, AnthropicWire.errorBody("overloaded_error", "Overloaded"),
                Map.of("retry-after-ms", Long.toString(ms)));
    }

    static FakeProviderServer.Reply alphaCreditBalance() {
        return FakeProviderServer.json(400, AnthropicWire.errorBody("invalid_request_error",
                "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to "
                        + "upgrade or purchase credits."), Map.of());
    }

    static FakeProviderServer.Reply betaText(String text) {
        return FakeProviderServer.sse(OpenAiWire.textReply(text));
    }

    static FakeProviderServer.Reply betaServerError() {
        return FakeProviderServer.json(503, OpenAiWire.errorBody("The server is overloaded or not ready yet.",
                "server_error", null), Map.of());
    }

    /** A 401 that echoes the rejected key back, as OpenAI does. */
    static FakeProviderServer.Reply betaRejectedKey() {
        return FakeProviderServer.json(401, OpenAiWire.errorBody("Incorrect API key provided: " + BETA_KEY
                + ". You can find your API key at https://platform.openai.com/account/api-keys.",
                "invalid_request_error", "invalid_api_key"), Map.of());
    }

    /** The model ids the server was asked for, in order. */
    static List<String> modelsAsked(FakeProviderServer server) {
        return server.requests().stream().map(request -> request.json().path("model").asText()).toList();
    }

    // --- the wire, in either dialect ---------------------------------------------------------

    /**
     * Sends a command and returns {@code {"success":…, "data"|"error":…}} whatever the dialect:
     * pi responses as they are, JSON-RPC results and errors mapped onto that shape.
     */
    JsonNode call(String type, Object... fields) throws IOException {
        String id = "c" + ids.incrementAndGet();
        ObjectNode command = DaemonProcess.command(type, id, fields);
        if (!jsonrpc) {
            return daemon.request(command);
        }
        command.remove("type");
        command.remove("id");
        ObjectNode request = Json.mapper().createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", type);
        request.set("params", command);
        daemon.send(request);
        JsonNode reply = daemon.await(node -> id.equals(node.path("id").asText())
                && (node.has("result") || node.has("error")));
        ObjectNode shaped = Json.mapper().createObjectNode().put("success", reply.has("result"));
        if (reply.has("result")) {
            shaped.set("data", reply.get("result"));
        } else {
            shaped.put("error", reply.path("error").path("message").asText());
        }
        return shaped;
    }

    /** The data of a command that must succeed. */
    JsonNode data(String type, Object... fields) throws IOException {
        JsonNode response = call(type, fields);
        if (!response.path("success").asBoolean()) {
            throw new AssertionError(type + " failed: " + response + "\nstderr:\n" + daemon.stderr());
        }
        return response.path("data");
    }

    /** Every streamed event so far, unwrapped from JSON-RPC notifications in that dialect. */
    List<JsonNode> events() {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode record : daemon.records()) {
            if (jsonrpc && "event".equals(record.path("method").asText())) {
                out.add(record.path("params"));
            } else if (!jsonrpc && record.has("type") && !"response".equals(record.path("type").asText())) {
                out.add(record);
            }
        }
        return out;
    }

    /** The events from index {@code from} on whose type is one of {@code types}. */
    List<JsonNode> events(int from, Set<String> types) {
        List<JsonNode> all = events();
        return all.subList(Math.min(from, all.size()), all.size()).stream()
                .filter(event -> types.contains(event.path("type").asText())).toList();
    }

    List<JsonNode> events(int from, String type) {
        return events(from, Set.of(type));
    }

    /** Waits for an event of {@code type} at or after index {@code from}. */
    JsonNode awaitEvent(String type, int from) {
        Waits.await().atMost(Duration.ofSeconds(30))
                .until(() -> !events(from, type).isEmpty() || !daemon.process().isAlive());
        List<JsonNode> found = events(from, type);
        if (found.isEmpty()) {
            throw new AssertionError("no " + type + "; daemon exited; stderr:\n" + daemon.stderr());
        }
        return found.get(0);
    }

    /**
     * Prompts and waits until the turn is over: a final {@code agent_end} (willRetry false) has
     * streamed and get_state shows no run and no retry chain. Returns the index of the turn's first
     * event, for {@link #events(int, Set)}.
     */
    int promptAndSettle(String message) throws IOException {
        int from = events().size();
        JsonNode accepted = call("prompt", "message", message);
        if (!accepted.path("success").asBoolean()) {
            throw new AssertionError("prompt refused: " + accepted);
        }
        Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> events(from, "agent_end").stream().anyMatch(end -> !end.path("willRetry").asBoolean())
                        || !daemon.process().isAlive());
        Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            JsonNode state = data("get_state");
            return !state.path("isStreaming").asBoolean() && !state.path("isRetrying").asBoolean();
        });
        return from;
    }

    /**
     * Waits until get_fallback_state lists no running cooldown for {@code selector}: the daemon's
     * own clock decides, so the test waits exactly as long as the cooldown, however slow the machine.
     */
    /**
     * Until {@code selector} is neither cooling down nor behind an open circuit. The two end about
     * together, but the circuit opens a little after the cooldown starts (by as much as a loaded
     * machine delays the switch), so a test that expects a revert waits for both.
     */
    void awaitNoCooldown(String selector) {
        Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonNode state = data("get_fallback_state");
            for (JsonNode cooldown : state.path("cooldowns")) {
                if (selector.equals(cooldown.path("selector").asText()) && cooldown.path("remainingMs").asLong() > 0) {
                    return false;
                }
            }
            for (JsonNode circuit : state.path("circuits")) {
                if (selector.equals(circuit.path("selector").asText()) && "open".equals(circuit.path("state").asText())
                        && circuit.path("remainingMs").asLong() > 0) {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * Keeps an event sequence as {@code target/fallback-events/<name>.jsonl}: the real sequences
     * docs/fallback-readme-section.md shows are copied from there.
     */
    static void capture(String name, List<JsonNode> events) throws IOException {
        Path out = Files.createDirectories(Path.of("target", "fallback-events")).resolve(name + ".jsonl");
        StringBuilder text = new StringBuilder();
        for (JsonNode event : events) {
            text.append(Json.mapper().writeValueAsString(event)).append('\n');
        }
        Files.writeString(out, text);
    }

    /** {@code provider/id} of the session's model now. */
    String model() throws IOException {
        JsonNode model = data("get_state").path("model");
        return model.path("provider").asText() + "/" + model.path("id").asText();
    }

    @Override
    public void close() {
        if (daemon != null) {
            daemon.close();
        }
        alpha.close();
        beta.close();
    }

    /** {@link #close}, then the check every fallback IT makes of its daemon: stdout held only records. */
    void closeCheckingStdout() {
        close();
        assertEquals(List.of(), daemon().nonJsonLines(), "stdout carries only protocol records");
    }
}
