package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22 through the real jar. N2: a provider streaming 20 MiB against a 1 MiB
 * {@code retry.provider.maxReplyBytes} is cut, the run ends with "reply too large", nothing is
 * retried and the daemon answers {@code get_state}. N3: a client that stops reading stdout for
 * many idle limits while a healthy reply streams does not turn that reply into a stream idle
 * timeout: one request, no retry, the whole reply.
 */
class StreamBoundsIT {
    private static final String KEY = "sk-bounds-test";

    @TempDir
    Path dir;
    private FakeProviderServer server;
    private DaemonProcess daemon;
    private Process slowClient;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
        if (slowClient != null) {
            slowClient.destroyForcibly();
        }
        if (server != null) {
            server.close();
        }
    }

    /** models.json for the fake server (maxTokens high enough that only the byte cap bounds), and settings. */
    private Path agentDir(String settings) throws IOException {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"local":{"baseUrl":"%s","api":"openai-completions","apiKey":"%s",
                  "models":[{"id":"local-model","contextWindow":200000,"maxTokens":1000000}]}}}
                """.formatted(server.baseUrl(), KEY));
        Files.writeString(agentDir.resolve("settings.json"), settings);
        return agentDir;
    }

    @Test
    void aReplyPastTheByteCapIsCutAndTheDaemonStillAnswers() throws Exception {
        server = FakeProviderServer.start();
        List<String> chunks = new ArrayList<>();
        chunks.add(OpenAiWire.role());
        String piece = "x".repeat(16 * 1024);
        for (int i = 0; i < 20 * 64; i++) { // 20 MiB of 16 KiB deltas
            chunks.add(OpenAiWire.content(piece));
        }
        chunks.add(OpenAiWire.finish("stop"));
        chunks.add(OpenAiWire.done());
        server.enqueue(FakeProviderServer.sse(chunks));
        // Compaction off: the kept megabyte would otherwise fill the context and ask for a summary.
        Path agentDir = agentDir("{\"retry\":{\"baseDelayMs\":10,\"provider\":{\"maxReplyBytes\":1048576}},"
                + "\"compaction\":{\"enabled\":false}}");
        daemon = DaemonProcess.start(agentDir, dir, "--no-session", "--updates", "delta", "--model",
                LocalProvider.MODEL);
        daemon.awaitNth("ready", 1);

        assertTrue(daemon.request(command("prompt", "p", "message", "say a lot")).path("success").asBoolean());
        JsonNode end = awaitFinalAgentEnd();
        JsonNode messages = end.path("messages");
        JsonNode reply = messages.get(messages.size() - 1);
        assertEquals("error", reply.path("stopReason").asText(), reply.path("errorMessage").asText());
        assertEquals("reply too large: over 1 MiB (retry.provider.maxReplyBytes)", reply.path("errorMessage").asText());
        assertEquals("reply_too_large", reply.path("errorType").asText());
        int kept = reply.path("content").path(0).path("text").asText().length();
        assertTrue(kept <= 1024 * 1024 && kept >= 1024 * 1024 - piece.length(), kept + " chars kept");

        JsonNode state = daemon.request(command("get_state", "s")).path("data");
        assertFalse(state.path("isStreaming").asBoolean());
        assertEquals(1, server.requestCount(), () -> "a cut reply is final: no retry; requests: " + server.requests()
                .stream().map(r -> r.body().substring(0, Math.min(300, r.body().length()))).toList());
        assertFalse(daemon.types().contains("auto_retry_start"));
        Waits.await().atMost(Duration.ofSeconds(60)).until(() -> server.disconnects() == 1); // the exchange was ended
        assertEquals(0, daemon.closeStdinAndWait());
        assertEquals(List.of(), daemon.nonJsonLines());
    }

    @Test
    void aClientThatStopsReadingIsNotProviderSilence() throws Exception {
        server = FakeProviderServer.start();
        List<String> deltas = new ArrayList<>();
        for (int i = 0; i < 30_000; i++) {
            deltas.add("w" + i + " ");
        }
        server.enqueue(FakeProviderServer.sse(OpenAiWire.textReply(deltas.toArray(String[]::new))));
        // An idle limit of 1 s; the client below stops reading for 8 s once the reply streams.
        Path agentDir = agentDir("{\"retry\":{\"baseDelayMs\":10,\"provider\":{\"streamIdleTimeoutMs\":1000}}}");
        List<String> commandLine = new ArrayList<>(DaemonProcess.javaCommand());
        commandLine.addAll(List.of("--no-session", "--updates", "delta", "--model", LocalProvider.MODEL));
        ProcessBuilder builder = new ProcessBuilder(commandLine).directory(dir.toFile())
                .redirectError(dir.resolve("slow-client.stderr").toFile());
        builder.environment().put("AGENTD_DIR", agentDir.toString());
        slowClient = builder.start();
        OutputStream stdin = slowClient.getOutputStream();
        stdin.write("{\"type\":\"prompt\",\"id\":\"p\",\"message\":\"talk\"}\n".getBytes(StandardCharsets.UTF_8));
        stdin.flush();

        // Not reading: the pipe and the stdout queue fill, and the run thread waits for room
        // with the provider's stream unread, for 8 idle limits.
        Waits.await().atMost(Duration.ofSeconds(60)).until(() -> server.requestCount() >= 1);
        TimeUnit.MILLISECONDS.sleep(8_000); // the client's stall: this test's subject is real time
        BufferedReader stdout = new BufferedReader(new InputStreamReader(slowClient.getInputStream(),
                StandardCharsets.UTF_8));
        List<JsonNode> records = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        JsonNode end = null;
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            JsonNode record = Json.mapper().readTree(line);
            records.add(record);
            if ("text_delta".equals(record.path("assistantMessageEvent").path("type").asText())) {
                text.append(record.path("assistantMessageEvent").path("delta").asText());
            }
            if ("agent_end".equals(record.path("type").asText()) && !record.path("willRetry").asBoolean()) {
                end = record;
                break;
            }
        }
        assertTrue(end != null, "the run ended; stderr:\n" + Files.readString(dir.resolve("slow-client.stderr")));
        JsonNode messages = end.path("messages");
        JsonNode reply = messages.get(messages.size() - 1);
        assertEquals("stop", reply.path("stopReason").asText(), reply.path("errorMessage").asText());
        assertEquals(String.join("", deltas), text.toString(), "every delta, once");
        assertEquals(1, server.requestCount(), "exactly one provider request");
        assertTrue(records.stream().noneMatch(r -> "auto_retry_start".equals(r.path("type").asText())),
                "no retry");
        stdin.close();
        assertTrue(slowClient.waitFor(60, TimeUnit.SECONDS), "the daemon exits on EOF");
    }

    private JsonNode awaitFinalAgentEnd() {
        JsonNode[] end = {null};
        Waits.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (!daemon.process().isAlive()) {
                throw new AssertionError("the daemon died; stderr:\n" + daemon.stderr());
            }
            end[0] = daemon.records().stream().filter(node -> "agent_end".equals(node.path("type").asText())
                    && !node.path("willRetry").asBoolean()).findFirst().orElse(null);
            return end[0] != null;
        });
        return end[0];
    }
}
