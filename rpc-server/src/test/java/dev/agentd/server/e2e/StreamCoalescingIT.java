package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 through the real jar: a client that stops reading during a full-mode reply gets fewer
 * {@code message_update}s with the same final state and every other record in order; a client
 * that keeps up with paced deltas gets one update per delta.
 */
class StreamCoalescingIT {
    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Process::destroyForcibly);
    }

    private static String words(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> prefix + i).collect(Collectors.joining(" ", "", "."));
    }

    /** Spawns the daemon, enqueues {@code step} as the faux reply and prompts. */
    private Process prompt(String updates, Map<String, Object> step, Path session) throws IOException {
        List<String> command = new ArrayList<>(DaemonProcess.javaCommand());
        command.addAll(List.of("--updates", updates, "--session", session.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectError(dir.resolve(session.getFileName() + ".stderr").toFile());
        builder.environment().put("AGENTD_DIR", Files.createDirectories(dir.resolve("agent")).toString());
        Process process = builder.start();
        started.add(process);
        OutputStream stdin = process.getOutputStream();
        stdin.write((Json.mapper().writeValueAsString(command("faux_enqueue", "q", "steps", List.of(step)))
                + "\n{\"type\":\"prompt\",\"id\":\"p\",\"message\":\"talk\"}\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        return process;
    }

    /** Reads stdout up to {@code agent_end}, parsing every line, then ends the daemon with EOF. */
    private static List<JsonNode> readRun(Process process) throws Exception {
        return readRun(process, new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)));
    }

    private static List<JsonNode> readRun(Process process, BufferedReader stdout) throws Exception {
        List<JsonNode> records = new ArrayList<>();
        for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
            JsonNode record = Json.mapper().readTree(line);
            records.add(record);
            if ("agent_end".equals(record.path("type").asText())) {
                break;
            }
        }
        process.getOutputStream().close();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the daemon exits on EOF");
        return records;
    }

    private static boolean isDelta(JsonNode record) {
        return record.path("assistantMessageEvent").path("type").asText().endsWith("_delta");
    }

    /** The deltas of one kind, as sent. */
    private static List<String> deltas(List<JsonNode> records, String kind) {
        return records.stream().filter(r -> kind.equals(r.path("assistantMessageEvent").path("type").asText()))
                .map(r -> r.path("assistantMessageEvent").path("delta").asText()).toList();
    }

    /** Every record that is not a delta update, reduced to what identifies it. */
    private static List<String> others(List<JsonNode> records) {
        return records.stream().filter(r -> !isDelta(r))
                .map(r -> r.path("type").asText() + " " + r.path("assistantMessageEvent").path("type").asText()
                        + " " + r.path("command").asText() + " " + r.path("success").asText()).toList();
    }

    private static JsonNode lastUpdate(List<JsonNode> records) {
        JsonNode last = null;
        for (JsonNode record : records) {
            if (isDelta(record)) {
                last = record;
            }
        }
        return last;
    }

    @Test
    void aClientThatStopsReadingGetsMergedUpdatesAndTheSameFinalState() throws Exception {
        String thinking = words("t", 1500);
        String text = words("w", 3000);
        Map<String, Object> step = Map.of("thinking", thinking, "text", text, "chunkDelayMs", 0);
        List<JsonNode> reference = readRun(prompt("delta", step, dir.resolve("delta.jsonl")));

        Path session = dir.resolve("full.jsonl");
        Process slow = prompt("full", step, session);
        // Not reading stdout: the pipe fills and the writer blocks. The reply is persisted before
        // its message_end is queued, so the session file says when the whole reply was produced.
        Waits.await().until(() -> Files.exists(session) && Files.readString(session).contains("w2999."));
        List<JsonNode> records = readRun(slow);

        for (String kind : List.of("thinking_delta", "text_delta")) {
            List<String> merged = deltas(records, kind);
            List<String> oneByOne = deltas(reference, kind);
            assertEquals(String.join("", oneByOne), String.join("", merged), kind + ": the deltas add up to the same");
            assertTrue(merged.size() < oneByOne.size() / 2, kind + ": " + merged.size() + " updates for "
                    + oneByOne.size() + " deltas");
        }
        JsonNode last = lastUpdate(records);
        assertEquals(thinking, last.path("message").path("content").path(0).path("thinking").asText());
        assertEquals(text, last.path("message").path("content").path(1).path("text").asText(),
                "a display that shows the latest partial ends on the whole reply");
        assertEquals(last.path("message"), last.path("assistantMessageEvent").path("partial"));
        assertEquals(others(reference), others(records), "every other record, in order");
    }

    @Test
    void aClientThatKeepsUpWithPacedDeltasGetsOneUpdatePerDelta() throws Exception {
        // Paced as a provider paces them: the writer has tens of ms for each small record. The
        // first reply warms the daemon up (a cold writer is behind on its first records).
        Map<String, Object> step = Map.of("text", words("w", 60), "chunkDelayMs", 40);
        List<JsonNode> delta = secondReply(prompt("delta", step, dir.resolve("delta.jsonl")), step);
        List<JsonNode> full = secondReply(prompt("full", step, dir.resolve("full.jsonl")), step);
        assertTrue(deltas(delta, "text_delta").size() > 5, "the reply streams in several deltas");
        assertEquals(deltas(delta, "text_delta"), deltas(full, "text_delta"), "one full-mode update per delta");
        assertEquals(others(delta), others(full));
    }

    /** After the first run: prompts again with {@code step} and reads that run, then EOF. */
    private static List<JsonNode> secondReply(Process process, Map<String, Object> step) throws Exception {
        BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        // agent_settled, not agent_end: the first run's last record, so it never races the next commands' answers
        for (String line = stdout.readLine(); line != null && !line.contains("\"type\":\"agent_settled\""); ) {
            line = stdout.readLine();
        }
        OutputStream stdin = process.getOutputStream();
        stdin.write((Json.mapper().writeValueAsString(command("faux_enqueue", "q2", "steps", List.of(step)))
                + "\n{\"type\":\"prompt\",\"id\":\"p2\",\"message\":\"again\"}\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        return readRun(process, stdout);
    }
}
