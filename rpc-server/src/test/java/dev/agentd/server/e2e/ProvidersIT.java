package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real providers through the real process: a models.json provider, a retried 503, key hygiene. */
class ProvidersIT {
    private static final String KEY = "sk-agentd-test-1234567890abcdef";

    @TempDir
    Path dir;
    FakeProviderServer server;
    DaemonProcess daemon;
    Path agentDir;

    @BeforeEach
    void setUp() throws IOException {
        server = FakeProviderServer.start();
        agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"local":{"baseUrl":"%s","api":"openai-completions","apiKey":"!printf %s",
                  "headers":{"x-team":"agentd"},
                  "models":[{"id":"local-model","name":"Local","contextWindow":32000,"maxTokens":4096}]}}}
                """.formatted(server.baseUrl(), KEY));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":50}}");
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        server.close();
    }

    @Test
    void aModelsJsonProviderWithACommandKeyWorksEndToEnd() throws IOException {
        server.enqueue(FakeProviderServer.sse(OpenAiWire.textReply("Hello ", "from ", "the local model.")));
        daemon = DaemonProcess.start(agentDir, dir, "--model", "local/local-model");
        assertEquals("local-model", daemon.awaitNth("ready", 1).path("model").path("id").asText());
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        JsonNode reply = end.path("messages").get(1);
        assertEquals("Hello from the local model.", reply.path("content").get(0).path("text").asText());
        assertEquals(20, reply.path("usage").path("input").asInt());

        FakeProviderServer.RecordedRequest request = server.lastRequest();
        assertEquals("/chat/completions", request.path());
        assertEquals("Bearer " + KEY, request.header("authorization"));
        assertEquals("agentd", request.header("x-team"));
        assertEquals("local-model", request.json().path("model").asText());
        assertTrue(request.json().path("stream").asBoolean());
    }

    @Test
    void a503IsRetriedWithOneRequestPerAttempt() throws IOException {
        server.enqueue(FakeProviderServer.json(503, "{\"error\":{\"message\":\"upstream busy\",\"type\":\"server_error\"}}",
                Map.of()), FakeProviderServer.sse(OpenAiWire.textReply("ok")));
        daemon = DaemonProcess.start(agentDir, dir, "--model", "local/local-model");
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode start = daemon.awaitNth("auto_retry_start", 1);
        assertTrue(start.path("errorMessage").asText().startsWith("503 "), start.toString());
        JsonNode retryEnd = daemon.awaitNth("auto_retry_end", 1);
        assertTrue(retryEnd.path("success").asBoolean());
        daemon.awaitNth("agent_end", 2);
        assertEquals(2, server.requestCount());
    }

    @Test
    void aPromptForAModelWithoutCredentialIsAnsweredOnceWithTheReason() throws IOException {
        daemon = DaemonProcess.start(agentDir, dir, "--model", "anthropic/claude-sonnet-4-5");
        daemon.send(command("prompt", "p", "message", "hi"));
        daemon.await(node -> "p".equals(node.path("id").asText()) && node.has("error"));
        daemon.send(command("get_state", "s"));
        daemon.await(node -> "s".equals(node.path("id").asText()));
        List<JsonNode> responses = daemon.records().stream().filter(node -> "p".equals(node.path("id").asText()))
                .toList();
        assertEquals(1, responses.size(), responses.toString());
        assertFalse(responses.get(0).path("success").asBoolean());
        assertTrue(responses.get(0).path("error").asText().startsWith("No API key found for anthropic"));
        assertFalse(daemon.types().contains("agent_start"));
    }

    @Test
    void theApiKeyAppearsNowhere() throws Exception {
        // the provider even echoes the key back in its error body
        server.enqueue(FakeProviderServer.json(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY
                + "\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}", Map.of()),
                FakeProviderServer.sse(OpenAiWire.textReply("fine now")));
        daemon = DaemonProcess.start(agentDir, dir, "--model", "local/local-model", "--api-key", KEY);
        daemon.send(command("prompt", "p1", "message", "first"));
        JsonNode failed = daemon.awaitNth("agent_end", 1);
        assertTrue(failed.toString().contains("401"), failed.toString());
        daemon.send(command("prompt", "p2", "message", "second"));
        daemon.awaitNth("agent_end", 2);
        daemon.request(command("get_state", "s"));
        daemon.request(command("get_available_models", "m"));
        daemon.closeStdinAndWait();

        assertFalse(String.join("\n", daemon.rawLines()).contains(KEY), "stdout");
        assertFalse(daemon.stderr().contains(KEY), "stderr");
        try (Stream<Path> files = Files.walk(agentDir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (file.getFileName().toString().equals("models.json")) {
                    continue; // the user's own configuration
                }
                assertFalse(Files.readString(file).contains(KEY), "found the key in " + file);
            }
        }
        assertTrue(Files.list(agentDir.resolve("sessions")).findAny().isPresent(), "a session file was written");
        daemon = null;
    }
}
