package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
}
