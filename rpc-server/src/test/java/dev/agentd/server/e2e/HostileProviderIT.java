package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Provider-controlled text built to make pattern matching recurse or go quadratic (a 1 MB
 * {@code try again in 1a1a…} body, a 40 KB {@code 1s1s…} reset header, a 60 KB {@code error.type},
 * a 200 KB {@code finish_reason}) and error bodies that echo the key in several encodings, through
 * the real jar: each prompt ends, the next command is answered, abort and EOF work, stdout stays
 * JSON, and the key appears neither in stdout nor in the session file.
 */
class HostileProviderIT {
    private static final String KEY = "sk-hostile-TESTKEY/0123+4567=89";

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
    void hostileProviderTextNeitherWedgesTheDaemonNorLeaksTheKey() throws Exception {
        server = FakeProviderServer.start();
        Path agentDir = LocalProvider.agentDir(dir, server, KEY);
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":10,\"maxRetries\":1}}");
        Path sessions = Files.createDirectories(dir.resolve("sessions"));
        daemon = DaemonProcess.start(agentDir, dir, "--session-dir", sessions.toString(), "--model", "local/local-model");
        daemon.awaitNth("ready", 1);

        String tryAgain = "try again in " + "1a".repeat(500_000);
        String echoes = String.join(" ", KEY, URLEncoder.encode(KEY, StandardCharsets.UTF_8),
                Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.UTF_8)), KEY.replace("/", "\\/"));
        // A retryable reply is followed by a good one, which the retry must reach.
        Map<FakeProviderServer.Reply, Boolean> hostile = new java.util.LinkedHashMap<>();
        hostile.put(FakeProviderServer.json(429, OpenAiWire.errorBody(tryAgain, "rate_limit_exceeded", null), Map.of()),
                true);
        hostile.put(FakeProviderServer.json(503, OpenAiWire.errorBody("busy", "server_error", null),
                Map.of("x-ratelimit-reset-requests", "1s".repeat(20_000))), true);
        hostile.put(FakeProviderServer.json(500, OpenAiWire.errorBody("upstream", "x".repeat(60_000), null), Map.of()),
                true);
        hostile.put(FakeProviderServer.sse(List.of(OpenAiWire.role(),
                OpenAiWire.inBandError("Internal server error", "y".repeat(60_000), null))), true);
        hostile.put(FakeProviderServer.sse(List.of(OpenAiWire.role(), OpenAiWire.content("cut"),
                OpenAiWire.finish("z".repeat(200_000)), OpenAiWire.done())), false);
        hostile.put(FakeProviderServer.json(401, OpenAiWire.errorBody("Incorrect API key provided: " + echoes,
                "invalid_request_error", "invalid_api_key"), Map.of()), false);
        int p = 0;
        for (Map.Entry<FakeProviderServer.Reply, Boolean> entry : hostile.entrySet()) {
            server.enqueue(entry.getKey());
            if (entry.getValue()) {
                server.enqueue(FakeProviderServer.sse(OpenAiWire.textReply("recovered")));
            }
            int from = daemon.records().size();
            assertTrue(daemon.request(command("prompt", "p" + p, "message", "hostile " + p)).path("success").asBoolean());
            JsonNode end = daemon.awaitFinalAgentEnd(from);
            JsonNode messages = end.path("messages");
            String stopReason = messages.get(messages.size() - 1).path("stopReason").asText();
            assertEquals(entry.getValue() ? "stop" : "error", stopReason, "prompt " + p + ": " + end);
            daemon.awaitIdle("s" + p);
            p++;
        }
        server.enqueue(FakeProviderServer.sse(OpenAiWire.textReply("slow ", "answer")).withDelay(2_000));
        int from = daemon.records().size();
        daemon.request(command("prompt", "last", "message", "then abort"));
        Waits.await().until(() -> daemon.records().subList(from, daemon.records().size()).stream()
                .anyMatch(node -> "agent_start".equals(node.path("type").asText())));
        assertTrue(daemon.request(command("abort", "abort")).path("success").asBoolean());
        daemon.awaitFinalAgentEnd(from);

        assertEquals(0, daemon.closeStdinAndWait());
        assertEquals(List.of(), daemon.nonJsonLines());
        String stdout = daemon.records().toString();
        for (String form : List.of(KEY, URLEncoder.encode(KEY, StandardCharsets.UTF_8),
                Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.UTF_8)))) {
            assertFalse(stdout.contains(form), "the key leaked to stdout as " + form);
            assertFalse(daemon.stderr().contains(form), "the key leaked to stderr as " + form);
            try (Stream<Path> files = Files.walk(sessions)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertFalse(Files.readString(file).contains(form), "the key leaked to " + file);
                }
            }
        }
    }

}
