package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.OpenAiWire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code !command} key that waits (a password manager asking for an unlock) through the real
 * jar: while the run waits for it, the reader answers everything — the model list, the state and
 * abort — and abort ends the run at once. The old resolver held the credential lock for the
 * whole command, so these waited until the command ended (here: never). A command still running
 * when the daemon exits dies with it.
 */
class CredentialCommandIT {
    @TempDir
    Path dir;

    @Test
    void aSlowKeyCommandBlocksNeitherTheReaderNorAbort() throws Exception {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Path started = dir.resolve("started");
        Path unlock = dir.resolve("unlock"); // never created: the command only ends at its limit
        Files.writeString(agentDir.resolve("models.json"), """
                {"providers":{"local":{"baseUrl":"http://127.0.0.1:9","api":"openai-completions",
                  "apiKey":"!touch %s; while [ ! -e %s ]; do sleep 0.05; done; echo sk-never-SECRET",
                  "models":[{"id":"local-model"}]}}}
                """.formatted(started, unlock));
        try (DaemonProcess daemon = DaemonProcess.start(agentDir, dir, "--no-session", "--model",
                "local/local-model")) {
            daemon.awaitNth("ready", 1);
            assertTrue(daemon.request(command("prompt", "p", "message", "hi")).path("success").asBoolean());
            Waits.await().until(() -> Files.exists(started));

            JsonNode models = daemon.request(command("get_available_models", "models"));
            assertTrue(models.path("success").asBoolean(), models.toString());
            assertTrue(daemon.request(command("get_state", "state")).path("data").path("isStreaming").asBoolean());
            assertEquals("abort", daemon.request(command("abort", "abort")).path("command").asText());
            daemon.await(node -> "agent_end".equals(node.path("type").asText()));
            assertFalse(daemon.stderr().contains("did not finish within"),
                    "answered before the command's limit, not because of it:\n" + daemon.stderr());
            assertFalse(daemon.request(command("get_state", "after")).path("data").path("isStreaming").asBoolean());

            assertEquals(0, daemon.closeStdinAndWait());
            assertEquals(List.of(), daemon.nonJsonLines());
            assertFalse(String.join("\n", daemon.rawLines()).contains("sk-never-SECRET"));
        }
        // The daemon exited before the command's limit: the command must not outlive it.
        Waits.await().until(() -> ProcessHandle.allProcesses().noneMatch(p -> p.info().commandLine()
                .map(line -> line.contains(unlock.toString())).orElse(false)));
    }

    /**
     * N9, N17, N7: a key command that fails its first run (a dismissed unlock dialog) is named
     * with its cause — not "No API key found" — and run again once its back-off (5 s) is over,
     * when the prompt then succeeds; the command never sees agentd's own Redis URL.
     */
    @Test
    void aFailedKeyCommandIsNamedAndRunAgainAfterItsBackoff() throws Exception {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Path runs = dir.resolve("runs");
        Path envSeen = dir.resolve("env-seen");
        try (FakeProviderServer server = FakeProviderServer.start()) {
            Files.writeString(agentDir.resolve("models.json"), """
                    {"providers":{"local":{"baseUrl":"%s","api":"openai-completions",
                      "apiKey":"!env > %s; echo run >> %s; [ $(wc -l < %s) -ge 2 ] || exit 1; echo sk-unlocked-SECRET",
                      "models":[{"id":"local-model"}]}}}
                    """.formatted(server.baseUrl(), envSeen, runs, runs));
            try (DaemonProcess daemon = DaemonProcess.start(agentDir, dir,
                    Map.of("AGENTD_STATE_URL", "redis://:s3cret@127.0.0.1:1/0"), "--no-session", "--model",
                    "local/local-model")) {
                daemon.awaitNth("ready", 1);
                String first = promptError(daemon, "p0");
                assertTrue(first.contains("The command for local's key (models.json apiKey) exited with status 1"),
                        first);
                assertFalse(first.contains("No API key found"), first);

                // Within the back-off each prompt gets the cached failure; after it, the command runs again.
                int[] attempt = {1};
                Waits.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                    server.enqueue(FakeProviderServer.sse(OpenAiWire.textReply("unlocked")));
                    String error = promptError(daemon, "p" + attempt[0]++);
                    assertTrue(error == null || error.contains("exited with status 1"), error);
                    return error == null;
                });
                assertEquals(2, Files.readAllLines(runs).size(), "one run failed, the next succeeded");
                assertEquals("Bearer sk-unlocked-SECRET", server.lastRequest().header("authorization"));
                assertEquals(0, daemon.closeStdinAndWait());
                assertFalse(String.join("\n", daemon.rawLines()).contains("sk-unlocked-SECRET"));
            }
            String env = Files.readString(envSeen);
            assertTrue(env.contains("PATH="), "the command keeps the user's environment");
            assertFalse(env.contains("s3cret"), "the command does not get AGENTD_STATE_URL");
        }
    }

    /** The error message of the prompt's final reply, or null when it succeeded. */
    private static String promptError(DaemonProcess daemon, String id) throws Exception {
        int from = daemon.records().size();
        assertTrue(daemon.request(command("prompt", id, "message", "hi")).path("success").asBoolean());
        JsonNode[] end = {null};
        Waits.await().atMost(Duration.ofSeconds(60)).until(() -> {
            List<JsonNode> records = daemon.records();
            end[0] = records.subList(from, records.size()).stream()
                    .filter(node -> "agent_end".equals(node.path("type").asText())).findFirst().orElse(null);
            return end[0] != null;
        });
        JsonNode messages = end[0].path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        return "error".equals(last.path("stopReason").asText()) ? last.path("errorMessage").asText() : null;
    }
}
