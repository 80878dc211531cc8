package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The second pass's leak scans (N7, N10, N16) through the real jar: a planted secret appears in
 * neither stdout, stderr nor the session file.
 */
class SecretLeaksIT {
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

    /** N7: the Redis URL's password reaches neither the RPC bash nor the bash tool (an unreachable Redis will do). */
    @Test
    void theStateUrlPasswordReachesNoChild() throws Exception {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Path sessions = Files.createDirectories(dir.resolve("sessions"));
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[{\"toolCall\":{\"name\":\"bash\",\"arguments\":{\"command\":\"env\"}}},"
                + "{\"text\":\"seen\"}]");
        daemon = DaemonProcess.start(agentDir, work, Map.of("AGENTD_STATE_URL", "redis://:s3cret@127.0.0.1:1/0",
                "MY_PROXY", "http://me:pr0xy-pw@127.0.0.1:1"), "--faux-script", script.toString(), "--session-dir",
                sessions.toString());
        daemon.awaitNth("ready", 1);

        JsonNode bash = daemon.request(command("bash", "b", "command", "env"));
        String output = bash.path("data").path("output").asText();
        assertTrue(output.contains("PATH="), "env ran: " + bash);
        assertFalse(output.contains("s3cret") || output.contains("pr0xy-pw"), output);

        daemon.send(command("prompt", "p", "message", "run env"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        assertTrue(end.toString().contains("PATH="), "the bash tool ran env: " + end);

        assertEquals(0, daemon.closeStdinAndWait());
        assertNowhere(List.of("s3cret", "pr0xy-pw"), sessions);
    }

    /** N10: a baseUrl's password and query token are shown on no model object and redacted from echoes. */
    @Test
    void aBaseUrlsCredentialsAreNeitherShownNorEchoed() throws Exception {
        server = FakeProviderServer.start();
        String port = server.baseUrl().substring(server.baseUrl().lastIndexOf(':') + 1);
        String url = "http://purl-user:PW-N10-TESTSECRET@127.0.0.1:" + port + "/v1?key=TOKEN-N10-TESTSECRET";
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"purl":{"baseUrl":"%s","api":"openai-completions","apiKey":"sk-purl-TESTKEY-0001",
                  "models":[{"id":"m1"},{"id":"m2"}]}}}
                """.formatted(url));
        Path sessions = Files.createDirectories(dir.resolve("sessions"));
        daemon = DaemonProcess.start(agentDir, dir, "--session-dir", sessions.toString(), "--model", "purl/m1",
                "--verbose");
        daemon.awaitNth("ready", 1);
        server.enqueue(FakeProviderServer.json(400, OpenAiWire.errorBody("bad request to " + url,
                "invalid_request_error", null), Map.of()));

        JsonNode state = daemon.request(command("get_state", "s"));
        assertEquals("http://127.0.0.1:" + port + "/v1", state.path("data").path("model").path("baseUrl").asText());
        assertTrue(daemon.request(command("get_available_models", "m")).path("success").asBoolean());
        assertTrue(daemon.request(command("set_model", "sm", "provider", "purl", "modelId", "m2")).path("success")
                .asBoolean());
        daemon.send(command("prompt", "p", "message", "hi"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        assertTrue(end.toString().contains("bad request to"), "the error body was shown: " + end);
        assertEquals(1, server.requestCount());

        assertEquals(0, daemon.closeStdinAndWait());
        assertNowhere(List.of("PW-N10-TESTSECRET", "TOKEN-N10-TESTSECRET"), sessions);
    }

    /**
     * N16: two auth.json keys; the usage-limit body names both (as one naming the first key still
     * does after rotation to the second): neither appears anywhere, although each request carries
     * only one of them.
     */
    @Test
    void aKeyRotatedAwayFromIsRedactedToo() throws Exception {
        String first = "sk-ant-TESTSECRET-rotation-0001";
        String second = "sk-ant-TESTSECRET-rotation-0002";
        server = FakeProviderServer.start();
        Path agentDir = LocalProvider.agentDir(dir, server, "unused-models-json-key");
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"local":{"baseUrl":"%s","api":"openai-completions",
                  "models":[{"id":"local-model","contextWindow":32000,"maxTokens":4096}]}}}
                """.formatted(server.baseUrl()));
        Files.writeString(agentDir.resolve("auth.json"), "{\"local\":[\"" + first + "\",\"" + second + "\"]}");
        Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":10,\"maxRetries\":1}}");
        Path sessions = Files.createDirectories(dir.resolve("sessions"));
        String both = "keys " + first + " and " + second;
        server.enqueue(FakeProviderServer.json(429, OpenAiWire.errorBody("The usage limit has been reached for " + both,
                "usage_limit_reached", null), Map.of("retry-after-ms", "600000")));
        server.enqueue(FakeProviderServer.json(400, OpenAiWire.errorBody("Still over the limit: " + both,
                "invalid_request_error", null), Map.of()));
        daemon = DaemonProcess.start(agentDir, dir, "--session-dir", sessions.toString(), "--model", LocalProvider.MODEL,
                "--verbose");
        daemon.awaitNth("ready", 1);

        daemon.send(command("prompt", "p", "message", "hi"));
        daemon.await(node -> "agent_end".equals(node.path("type").asText()) && !node.path("willRetry").asBoolean());
        assertEquals(2, server.requestCount());
        assertNotEquals(server.requests().get(0).header("authorization"), server.requests().get(1).header("authorization"),
                "the second request used the other key");
        assertTrue(daemon.records().toString().contains("Still over the limit"), "the last body was shown");

        assertEquals(0, daemon.closeStdinAndWait());
        assertNowhere(List.of(first, second), sessions);
    }

    private void assertNowhere(List<String> secrets, Path sessions) throws IOException {
        assertEquals(List.of(), daemon.nonJsonLines());
        String stdout = String.join("\n", daemon.rawLines());
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sessions)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertFalse(files.isEmpty(), "a session file was written");
        for (String secret : secrets) {
            assertFalse(stdout.contains(secret), secret + " leaked to stdout");
            assertFalse(daemon.stderr().contains(secret), secret + " leaked to stderr");
            for (Path file : files) {
                assertFalse(Files.readString(file).contains(secret), secret + " leaked to " + file);
            }
        }
    }
}
