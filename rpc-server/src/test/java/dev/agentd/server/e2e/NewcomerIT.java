package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer's first hour through the real jar: a keyless local server, a dead provider named,
 * config mistakes explained in {@code ready}/{@code get_state}, {@code --verbose}, unknown-model
 * suggestions and {@code persist:false}.
 */
class NewcomerIT {
    @TempDir
    Path dir;
    Path agentDir;
    FakeProviderServer server;
    DaemonProcess daemon;

    @BeforeEach
    void setUp() throws IOException {
        agentDir = Files.createDirectories(dir.resolve("agent"));
        server = FakeProviderServer.start();
    }

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        server.close();
    }

    @Test
    void aKeylessLocalServerIsChosenAndGetsNoAuthHeader() throws Exception {
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"ollama":{"baseUrl":"%s","api":"openai-completions",
                  "models":[{"id":"llama3.1:8b"}]}}}""".formatted(server.baseUrl()));
        server.enqueue(FakeProviderServer.sse(OpenAiWire.textReply("Hi ", "from llama.")));
        daemon = DaemonProcess.start(agentDir, dir, "--no-session");
        JsonNode ready = daemon.awaitNth("ready", 1);
        assertEquals("ollama", ready.path("model").path("provider").asText(), ready.toString());
        assertFalse(ready.has("warnings"), ready.toString());
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        assertEquals("Hi from llama.", end.path("messages").get(1).path("content").get(0).path("text").asText(),
                end.toString());
        assertNull(server.lastRequest().header("authorization"));
        assertNull(server.lastRequest().header("x-api-key"));
    }

    @Test
    void aMissingKeyNamesEveryPlaceAKeyCanComeFrom() throws Exception {
        daemon = DaemonProcess.start(agentDir, dir, "--no-session", "--model", "anthropic/claude-sonnet-4-5");
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode failed = daemon.await(node -> "p".equals(node.path("id").asText()) && node.has("error"));
        String error = failed.path("error").asText();
        assertTrue(error.startsWith("No API key found for anthropic"), error);
        for (String place : List.of("--api-key", "auth.json", "ANTHROPIC_API_KEY", "\"apiKey\"", "models.json")) {
            assertTrue(error.contains(place), place + " in " + error);
        }
    }

    @Test
    void aDeadProviderIsNamedInTheReplyAndWithVerboseOnStderr() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"ollama":{"baseUrl":"http://127.0.0.1:%d/v1","api":"openai-completions",
                  "models":[{"id":"llama3.1:8b"}]}}}""".formatted(port));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"enabled\":false}}");
        daemon = DaemonProcess.start(agentDir, dir, "--no-session", "--verbose");
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode end = daemon.await(node -> "message_end".equals(node.path("type").asText())
                && "assistant".equals(node.path("message").path("role").asText()));
        String message = end.path("message").path("errorMessage").asText();
        assertEquals("Connection error: connection refused to 127.0.0.1:" + port, message, end.toString());
        Waits.await().until(() -> daemon.stderr().contains("POST http://127.0.0.1:" + port
                + "/v1/chat/completions -> failed after")
                && daemon.stderr().contains("connection refused to 127.0.0.1:" + port));
        assertTrue(daemon.stderr().contains("connection refused to 127.0.0.1:" + port), daemon.stderr());
    }

    @Test
    void verboseLogsEachRequestAndEachRetryDecisionButNeverAKey() throws Exception {
        String key = "sk-newcomer-0123456789abcdef";
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"local":{"baseUrl":"%s","api":"openai-completions","apiKey":"%s",
                  "headers":{"x-secret-header":"hdr-value-98765"},"models":[{"id":"m1"}]}}}"""
                .formatted(server.baseUrl(), key));
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":10}}");
        server.enqueue(FakeProviderServer.json(503, "{\"error\":{\"message\":\"busy\"}}",
                        Map.of("x-request-id", "req_abc123")),
                new FakeProviderServer.Stream(200, Map.of("content-type", "text/event-stream", "request-id", "req_ok42"),
                        OpenAiWire.textReply("fine"), 0, FakeProviderServer.End.FINISH));
        daemon = DaemonProcess.start(agentDir, dir, Map.of("AGENTD_LOG", "debug"), "--no-session");
        daemon.send(command("prompt", "p", "message", "hi"));
        daemon.awaitNth("auto_retry_end", 1);
        // stderr is written by other threads than stdout's events: wait for the last lines expected
        Waits.await().until(() -> daemon.stderr().contains("request-id req_ok42")
                && daemon.stderr().contains("retry succeeded on attempt 1"));
        String stderr = daemon.stderr();
        String url = "POST " + server.baseUrl().replaceAll("/+$", "") + "/chat/completions -> ";
        assertTrue(stderr.contains(url + "503 in "), stderr);
        assertTrue(stderr.contains("request-id req_abc123"), stderr);
        assertTrue(stderr.contains(url + "200 in "), stderr);
        assertTrue(stderr.contains("retry 1/3 in "), stderr);
        assertTrue(stderr.contains("retry succeeded on attempt 1"), stderr);
        assertFalse(stderr.contains(key), stderr);
        assertFalse(stderr.contains("hdr-value-98765"), stderr);
    }

    @Test
    void configMistakesAreExplainedInReadyAndGetState() throws Exception {
        Files.writeString(agentDir.resolve("models.json"), "{\"providers\":{\"x\":{\"baseUrl\":\"http://h/\",},}}\n");
        Files.writeString(agentDir.resolve("auth.json"),
                "{\"anthropic\":{\"type\":\"apikey\",\"key\":\"sk-ant-secret-42\"}}");
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"maxRetry\":9,\"basedelayms\":100},"
                + "\"compactoin\":{}}");
        daemon = DaemonProcess.start(agentDir, dir, "--no-session");
        JsonNode ready = daemon.awaitNth("ready", 1);
        List<String> warnings = texts(ready.path("warnings"));
        String all = String.join("\n", warnings);
        assertTrue(all.contains(agentDir.resolve("models.json") + ":1:"), all);
        assertTrue(all.contains("unknown key 'retry.maxRetry' (did you mean 'retry.maxRetries'?)"), all);
        assertTrue(all.contains("unknown key 'retry.basedelayms' (did you mean 'retry.baseDelayMs'?)"), all);
        assertTrue(all.contains("unknown key 'compactoin' (did you mean 'compaction'?)"), all);
        assertTrue(all.contains("credential type 'apikey' is not supported (did you mean 'api_key'?)"), all);
        assertTrue(warnings.get(warnings.size() - 1).startsWith("using the embedded faux model faux/faux-1"), all);
        assertFalse(all.contains("sk-ant-secret-42"), all);

        JsonNode state = daemon.request(command("get_state", "s"));
        assertEquals(warnings, texts(state.path("data").path("warnings")));
        assertFalse(daemon.stderr().contains("sk-ant-secret-42"));
    }

    @Test
    void anUnknownModelListsTheClosestOnes() throws Exception {
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"ollama":{"baseUrl":"http://127.0.0.1:1/v1","api":"openai-completions",
                  "models":[{"id":"llama3.1:8b"}]}}}""");
        daemon = DaemonProcess.start(agentDir, dir, "--no-session", "--model", "llama3");
        assertTrue(daemon.process().waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, daemon.process().exitValue());
        Waits.await().until(() -> daemon.stderr().contains("closest: ollama/llama3.1:8b"));
        assertTrue(daemon.stderr().contains("agentd: unknown model 'llama3'; closest: ollama/llama3.1:8b"),
                daemon.stderr());
    }

    @Test
    void retryTogglesPersistUnlessSentWithPersistFalse() throws Exception {
        Path settings = agentDir.resolve("settings.json");
        daemon = DaemonProcess.start(agentDir, dir, "--no-session");
        JsonNode off = daemon.request(command("set_auto_retry", "a", "enabled", false, "persist", false));
        assertTrue(off.path("success").asBoolean(), off.toString());
        JsonNode retry = daemon.request(command("set_retry_settings", "r", "maxRetries", 1, "persist", false));
        assertEquals(1, retry.path("data").path("maxRetries").asInt(), retry.toString());
        JsonNode state = daemon.request(command("get_state", "s"));
        assertFalse(state.path("data").path("autoRetryEnabled").asBoolean());
        assertFalse(Files.exists(settings), "persist:false wrote " + settings);

        daemon.request(command("set_auto_retry", "b", "enabled", true));
        assertTrue(Files.readString(settings).contains("\"enabled\" : true"), Files.readString(settings));
        assertFalse(Files.readString(settings).contains("maxRetries"), Files.readString(settings));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }
}
