package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, bounded probe 3 of 3 (the report's leak scan, in one daemon run): ten recognisable
 * secrets {@code TESTSECRET-<n>-<seeded random>} planted wherever a secret can be configured — a
 * literal {@code --api-key}, two {@code auth.json} keys of one provider (so a usage-limit 429
 * rotates them), a {@code models.json} {@code apiKey} naming an environment variable, a
 * {@code !command} key, a literal {@code models.json} key and header value, a password and a query
 * token in a {@code baseUrl}, and the Redis password in {@code AGENTD_STATE_URL} (a closed port:
 * the daemon degrades to local state). auth's first credential hits a usage limit on that model
 * alone, and the rotated one's error quotes the first one's request back; then a six-rung chain of
 * local providers whose every error quotes the request and the previous request back
 * ({@link HostileReplies#echo}) is walked twice; then a
 * model's {@code bash env} tool call, an RPC {@code bash env}, {@code get_state},
 * {@code get_available_models}, {@code get_fallback_state} and {@code export_html}. Stdout, the
 * {@code --verbose} stderr and every file under the agent and project directories (but the user's
 * own models.json and auth.json) must hold none of the secrets, raw, URL-encoded or base64. Until
 * the secrets fixes merge this fails for N7 (the Redis URL in the tools' environment), N10 (the
 * {@code baseUrl} password and query token) and N16 (keys other than the request's own, quoted
 * back); merged with h22-secrets it finds 0 leaks. Seed {@value #DEFAULT_SEED}
 * ({@code -Dagentd.leaks.seed}); bound: one daemon, 13 provider requests; 24 s measured on 2
 * cores at load 15-17 with two CPU burners.
 */
class LeakScanIT {
    private static final long DEFAULT_SEED = 20261202L;
    private static final long SEED = Long.getLong("agentd.leaks.seed", DEFAULT_SEED);
    private static final List<String> CHAIN = List.of("envk/m", "cmd/m", "hdr/m", "url/m", "auth/m");

    @TempDir
    Path dir;
    FakeProviderServer server;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void noPlantedSecretReachesAnyOutputInAnyEncoding() throws Exception {
        Random random = new Random(SEED);
        Map<String, String> secrets = new LinkedHashMap<>();
        for (String name : List.of("cli-key", "auth-key-1", "auth-key-2", "env-key", "command-key", "models-key",
                "header", "url-password", "url-query", "redis-password")) {
            // keys carry '/', '+' and '=' so their URL-encoded form differs; URL parts stay plain
            String tail = name.startsWith("url") || name.startsWith("redis") ? "" : "/+=";
            secrets.put(name, "TESTSECRET-" + (secrets.size() + 1) + "-" + Long.toString(random.nextLong() >>> 1, 36)
                    + tail);
        }
        server = FakeProviderServer.start();
        AtomicReference<FakeProviderServer.RecordedRequest> previous = new AtomicReference<>();
        AtomicReference<FakeProviderServer.RecordedRequest> firstAuth = new AtomicReference<>();
        server.otherwise(request -> {
            FakeProviderServer.Reply reply;
            if (request.path().startsWith("/auth")) {
                // auth's first credential hits a usage limit (a plain body: its text decides the limit's
                // scope); the rotated credential's error quotes the first one's request back (N16)
                firstAuth.compareAndSet(null, request);
                String key = String.valueOf(request.header("authorization"));
                reply = key.equals(firstAuth.get().header("authorization"))
                        ? FakeProviderServer.json(429, OpenAiWire.errorBody("You have hit your usage limit.",
                                "usage_limit_reached", null), Map.of())
                        : HostileReplies.echo(503, "Service unavailable", request, firstAuth.get());
            } else {
                reply = HostileReplies.echo(503, "Service unavailable, upstream error", request, previous.get());
            }
            previous.set(request);
            return reply;
        });
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Path project = Files.createDirectories(dir.resolve("project"));
        String base = server.baseUrl();
        String withUserInfo = base.replace("http://", "http://leakscan:" + secrets.get("url-password") + "@");
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{
                  "lit":{"baseUrl":"%1$s/lit","api":"openai-completions","models":[{"id":"m"}]},
                  "envk":{"baseUrl":"%1$s/envk","api":"openai-completions","apiKey":"LEAKSCAN_UPSTREAM",
                    "models":[{"id":"m"}]},
                  "cmd":{"baseUrl":"%1$s/cmd","api":"openai-completions","apiKey":"!printf '%%s' '%3$s'",
                    "models":[{"id":"m"}]},
                  "hdr":{"baseUrl":"%1$s/hdr","api":"openai-completions","apiKey":"%4$s",
                    "headers":{"x-leakscan-tenant":"%5$s"},"models":[{"id":"m"}]},
                  "url":{"baseUrl":"%2$s/url?token=%6$s","api":"openai-completions","apiKey":"sk-plain-url",
                    "models":[{"id":"m"}]},
                  "auth":{"baseUrl":"%1$s/auth","api":"openai-completions","models":[{"id":"m"}]},
                  "tool":{"baseUrl":"%1$s/tool","api":"openai-completions","apiKey":"sk-plain-tool",
                    "models":[{"id":"m"}]}}}
                """.formatted(base, withUserInfo, secrets.get("command-key"), secrets.get("models-key"),
                secrets.get("header"), secrets.get("url-query")));
        Files.writeString(agentDir.resolve("auth.json"), "{\"auth\":[\"" + secrets.get("auth-key-1") + "\",\""
                + secrets.get("auth-key-2") + "\"]}");
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":1,\"maxRetries\":1,"
                + "\"fallbackChains\":{\"lit/m\":" + Json.mapper().writeValueAsString(CHAIN) + "}}}");
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        daemon = DaemonProcess.start(agentDir, project, Map.of("LEAKSCAN_UPSTREAM", secrets.get("env-key"),
                "AGENTD_STATE_URL", "redis://:" + secrets.get("redis-password") + "@127.0.0.1:" + closedPort + "/0"),
                "--verbose", "--model", "lit/m", "--api-key", secrets.get("cli-key"));
        daemon.awaitNth("ready", 1);

        // auth alone first, so its usage limit rotates credentials (on a chain it would switch model)
        assertTrue(daemon.request(command("set_model", "auth", "provider", "auth", "modelId", "m")).path("success")
                .asBoolean());
        promptAndSettle("rotate", "use the other key");
        List<String> authKeys = server.requests().stream().filter(r -> r.path().startsWith("/auth"))
                .map(r -> String.valueOf(r.header("authorization"))).distinct().toList();
        assertEquals(2, authKeys.size(), "the usage limit rotated auth's two credentials");
        assertTrue(daemon.request(command("set_model", "lit", "provider", "lit", "modelId", "m")).path("success")
                .asBoolean());
        promptAndSettle("walk", "walk the chain");
        promptAndSettle("again", "and again");

        // A model's bash tool call running env, then the RPC bash env.
        assertTrue(daemon.request(command("set_model", "model", "provider", "tool", "modelId", "m")).path("success")
                .asBoolean());
        server.enqueue(FakeProviderServer.sse(List.of(OpenAiWire.role(),
                OpenAiWire.toolCallStart(0, "call_env", "bash"), OpenAiWire.toolCallArgs(0, "{\"command\":\"env\"}"),
                OpenAiWire.finish("tool_calls"), OpenAiWire.done())),
                FakeProviderServer.sse(OpenAiWire.textReply("The environment is listed.")));
        promptAndSettle("p-tool", "list the environment");
        assertTrue(daemon.records().stream().anyMatch(r -> "tool_execution_end".equals(r.path("type").asText())),
                "the tool ran");
        assertTrue(daemon.request(command("bash", "rpc-env", "command", "env")).path("success").asBoolean());
        for (String type : List.of("get_state", "get_available_models", "get_fallback_state", "get_messages")) {
            daemon.request(command(type, type));
        }
        JsonNode exported = daemon.request(command("export_html", "export", "outputPath", "export/page.html"));
        assertTrue(exported.path("success").asBoolean(), exported.toString());
        assertEquals(0, daemon.closeStdinAndWait(), "exit code after EOF");
        assertEquals(List.of(), daemon.nonJsonLines(), "stdout carries only protocol records");

        Map<String, String> places = new LinkedHashMap<>();
        places.put("stdout", String.join("\n", daemon.rawLines()));
        places.put("stderr", daemon.stderr());
        for (Path root : List.of(agentDir, project)) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    if (file.getParent().equals(agentDir) && Set.of("models.json", "auth.json")
                            .contains(file.getFileName().toString())) {
                        continue; // the user's own configuration
                    }
                    places.put(dir.relativize(file).toString(), Files.readString(file, StandardCharsets.ISO_8859_1));
                }
            }
        }
        Map<String, Set<String>> leaks = new TreeMap<>();
        secrets.forEach((name, secret) -> encodings(secret).forEach((encoding, form) ->
                places.forEach((place, text) -> {
                    if (text.contains(form)) {
                        leaks.computeIfAbsent(name + " (" + encoding + ")", k -> new TreeSet<>()).add(place);
                    }
                })));
        System.out.printf("LeakScanIT seed %d: %d secrets x 3 encodings over %d places, %d provider requests, "
                + "%d leaks%n", SEED, secrets.size(), places.size(), server.requestCount(), leaks.size());
        assertEquals(Map.of(), leaks, "planted secrets found (N7: redis-password; N10: url-*; N16: keys quoted "
                + "by another request's error); seed " + SEED);
    }

    private static Map<String, String> encodings(String secret) {
        return Map.of("raw", secret, "url-encoded", URLEncoder.encode(secret, StandardCharsets.UTF_8),
                "base64", Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)));
    }

    /** Prompts and waits for the final agent_end, then for the session to be idle. */
    private void promptAndSettle(String id, String message) throws Exception {
        int from = daemon.records().size();
        assertTrue(daemon.request(command("prompt", id, "message", message)).path("success").asBoolean());
        daemon.awaitFinalAgentEnd(from);
        daemon.awaitIdle(id + "-idle");
    }
}
