package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.Waits;
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
 * The process around the protocol, through the real jar: a line the reader used to die on (a long
 * id in broken JSON) is answered and the daemon keeps serving; SIGQUIT's thread dump (through
 * bin/agentd) goes to stderr, never to stdout; a client that closes stdout mid-stream makes the
 * daemon exit at once instead of after the shutdown grace.
 */
class StdioIT {
    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void tearDown() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void aBrokenLineWithALongIdIsAnsweredAndTheReaderLivesOn() throws Exception {
        try (DaemonProcess daemon = DaemonProcess.start(Files.createDirectories(dir.resolve("agent")), dir,
                "--no-session")) {
            daemon.awaitNth("ready", 1);
            for (int length : new int[] {1000, 1500, 3000, 60_000}) {
                String id = "L".repeat(length);
                daemon.send("{\"type\":\"get_state\",\"id\":\"" + id + "\" x");
                JsonNode error = daemon.response(id);
                assertFalse(error.path("success").asBoolean());
                assertTrue(error.path("error").asText().startsWith("Failed to parse command"), error.toString());
                assertEquals("get_state", daemon.request(command("get_state", "after-" + length)).path("command")
                        .asText());
            }
            assertEquals("abort", daemon.request(command("abort", "abort")).path("command").asText());
            assertEquals(0, daemon.closeStdinAndWait(), "EOF still ends the daemon");
            assertEquals(List.of(), daemon.nonJsonLines());
            assertFalse(daemon.stderr().contains("Exception in thread"), daemon.stderr());
        }
    }

    @Test
    void sigquitThreadDumpGoesToStderrThroughTheLauncher() throws Exception {
        Path launcher = DaemonProcess.jar().getParent().getParent().getParent().resolve("bin/agentd");
        Path stderr = dir.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "--no-session").directory(dir.toFile())
                .redirectError(stderr.toFile());
        builder.environment().put("AGENTD_DIR", Files.createDirectories(dir.resolve("agent")).toString());
        builder.environment().put("AGENTD_CDS", "off"); // no background trainer: only this JVM
        Process process = start(builder);
        BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>();
        lines.add(stdout.readLine()); // ready: the JVM is up and its signal handlers installed
        assertEquals("ready", Json.mapper().readTree(lines.get(0)).path("type").asText(), lines.get(0));

        // bin/agentd execs java, so the launcher's pid is the JVM's.
        assertEquals(0, new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid())).start().waitFor());
        Waits.await().atMost(Duration.ofSeconds(30))
                .until(() -> Files.readString(stderr).contains("Full thread dump"));
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write("{\"type\":\"get_state\",\"id\":\"after-quit\"}\n".getBytes(StandardCharsets.UTF_8));
        }
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            lines.add(line);
        }
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), Files.readString(stderr));
        List<String> types = new ArrayList<>();
        for (String line : lines) {
            JsonNode record = Json.mapper().readTree(line); // throws on a thread-dump line
            assertTrue(record.isObject(), line);
            types.add(record.path("type").asText());
        }
        assertEquals(List.of("ready", "response"), types);
    }

    @Test
    void closingStdoutDuringAStreamEndsTheDaemonWithoutTheShutdownGrace() throws Exception {
        List<String> command = new ArrayList<>(DaemonProcess.javaCommand());
        command.add("--no-session");
        Path stderr = dir.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectError(stderr.toFile());
        builder.environment().put("AGENTD_DIR", Files.createDirectories(dir.resolve("agent")).toString());
        builder.environment().put("AGENTD_FAUX_CHUNK_DELAY_MS", "2");
        Process process = start(builder);
        BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        OutputStream stdin = process.getOutputStream();
        String reply = "word ".repeat(20_000); // ~40 s of deltas at 2 ms: the stream is surely running
        stdin.write((Json.mapper().writeValueAsString(command("faux_enqueue", "q", "steps",
                List.of(java.util.Map.of("text", reply)))) + "\n"
                + "{\"type\":\"prompt\",\"id\":\"p\",\"message\":\"talk\"}\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        int updates = 0;
        for (String line = stdout.readLine(); line != null && updates < 5; line = stdout.readLine()) {
            if (line.contains("\"type\":\"message_update\"")) {
                updates++;
            }
        }
        assertEquals(5, updates, "the reply is streaming");
        stdout.close(); // the run thread's next write fails with EPIPE

        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the daemon exits");
        String log = Files.readString(stderr);
        assertEquals(0, process.exitValue(), log);
        assertTrue(log.contains("stdout is closed"), log);
        assertFalse(log.contains("did not stop within"), "shutdown must not wait out its grace:\n" + log);
        assertFalse(log.contains("RejectedExecutionException"), log);
        stdin.close();
    }

    private Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        started.add(process);
        return process;
    }
}
