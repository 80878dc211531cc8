package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.FakeProviderServer.End;
import dev.agentd.server.testing.http.OpenAiWire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A models.json OpenAI-compatible provider that misbehaves in every way the fake server knows —
 * garbage SSE, a connection dropped mid-stream, a slow drip, silence after the headers and after a
 * few events (short stream timeouts in settings.json), 5xx and in-band errors, a non-retryable 400
 * — across many prompts in sequence (seeded). Each prompt must end with a terminal event (agent_end
 * with willRetry false, or a failed auto_retry_end), with the outcome its script implies, within a
 * bounded time; each attempt is exactly one request; the daemon stays alive and stdout stays JSON.
 */
class ProviderFaultIT {
    private static final long SEED = Long.getLong("agentd.fault.seed", 0xFA017L);
    private static final int PROMPTS = 24;
    private static final int MAX_RETRIES = 3;
    /**
     * Short, so hangs end quickly, yet several times what a loaded machine needs to answer; a
     * warm-up prompt first takes the cold JVM's HTTP class loading out of the measured prompts.
     */
    private static final int START_TIMEOUT_MS = 1_500;
    private static final int IDLE_TIMEOUT_MS = 800;

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

    /** A scripted provider answer and whether it lets the attempt succeed. */
    private record Fault(String name, FakeProviderServer.Reply reply, boolean succeeds, boolean retryable) {}

    @Test
    void everyPromptEndsWhateverTheProviderDoes() throws Exception {
        server = FakeProviderServer.start();
        Path agentDir = LocalProvider.agentDir(dir, server, "sk-local-fault-test");
        Files.writeString(agentDir.resolve("settings.json"), """
                {"retry":{"baseDelayMs":10,"maxRetries":%d,
                  "provider":{"streamStartTimeoutMs":%d,"streamIdleTimeoutMs":%d}}}
                """.formatted(MAX_RETRIES, START_TIMEOUT_MS, IDLE_TIMEOUT_MS));
        daemon = DaemonProcess.start(agentDir, dir, "--no-session", "--model", "local/local-model");
        daemon.awaitNth("ready", 1);
        int warmUpRequests = warmUp();

        Random random = new Random(SEED);
        int enqueued = 0;
        for (int p = 0; p < PROMPTS; p++) {
            List<Fault> script = script(random);
            script.forEach(fault -> server.enqueue(fault.reply()));
            enqueued += script.size();
            Fault last = script.get(script.size() - 1);
            String context = "prompt " + p + " " + script.stream().map(Fault::name).toList() + " (seed " + SEED + ")";

            int from = daemon.records().size();
            JsonNode accepted = daemon.request(command("prompt", "p" + p, "message", "attempt " + p));
            assertTrue(accepted.path("success").asBoolean(), context + ": " + accepted);
            JsonNode terminal = awaitTerminal(from, context);
            boolean succeeded = "agent_end".equals(terminal.path("type").asText())
                    && "stop".equals(lastReply(terminal).path("stopReason").asText());
            assertEquals(last.succeeds(), succeeded, context + ": " + terminal);
            awaitIdle(p);
            assertChainClosed(from, script.size() > 1, last.succeeds(), context);
        }
        assertEquals(enqueued, server.requestCount() - warmUpRequests,
                "one request per attempt, every scripted reply used");
        assertTrue(daemon.process().isAlive());
        assertEquals("get_state", daemon.request(command("get_state", "final")).path("command").asText());
        assertEquals(0, daemon.closeStdinAndWait());
        assertEquals(List.of(), daemon.nonJsonLines());
    }

    /**
     * One good exchange before the faults: the daemon's first request loads and JIT-compiles the
     * HTTP stack, which on a busy machine can take longer than the short stream limits. Its
     * outcome does not matter (a timed-out attempt is retried against an empty script, which
     * consumes no scripted reply).
     *
     * @return the requests it made
     */
    private int warmUp() throws IOException {
        server.enqueue(good().reply());
        int from = daemon.records().size();
        daemon.request(command("prompt", "warm-up", "message", "warm up"));
        awaitTerminal(from, "warm-up");
        awaitIdle(-1);
        return server.requestCount();
    }

    /**
     * Up to {@link #MAX_RETRIES} retryable faults, then a good reply or a final fault: a
     * non-retryable 400, or one more retryable fault, which exhausts the retries.
     */
    private static List<Fault> script(Random random) {
        List<Fault> script = new ArrayList<>();
        int faults = random.nextInt(MAX_RETRIES + 1);
        for (int i = 0; i < faults; i++) {
            script.add(retryableFault(random));
        }
        int ending = random.nextInt(10);
        if (ending < 6) {
            script.add(random.nextBoolean() ? good() : drip());
        } else if (ending < 8) {
            script.add(badRequest());
        } else {
            while (script.size() < MAX_RETRIES + 1) {
                script.add(retryableFault(random));
            }
        }
        return script;
    }

    private static Fault retryableFault(Random random) {
        List<String> reply = OpenAiWire.textReply("Partial ", "answer ", "that ", "never ", "ends.");
        List<String> head = reply.subList(0, 3);
        return switch (random.nextInt(8)) {
            case 0 -> new Fault("garbage-json", FakeProviderServer.sse(List.of(OpenAiWire.role(),
                    "data: {\"choices\":[{\"delta\":{\"content\":\"x\"\u0000 not json\n\n", OpenAiWire.done())),
                    false, true);
            case 1 -> new Fault("garbage-bytes", FakeProviderServer.sse(List.of("\u00ff\u00fe\r\n::::\n\n",
                    "event: ???\nretry: x\n\n", "<html>502 Bad Gateway</html>\n")), false, true);
            case 2 -> new Fault("drop", FakeProviderServer.sse(head).ending(End.DROP), false, true);
            case 3 -> new Fault("hang-after-headers", FakeProviderServer.sse(List.of()).ending(End.HANG), false, true);
            case 4 -> new Fault("hang-mid-stream", FakeProviderServer.sse(head).ending(End.HANG), false, true);
            case 5 -> new Fault("in-band-error", FakeProviderServer.sse(List.of(OpenAiWire.role(),
                    OpenAiWire.inBandError("The server had an error", "server_error", null))), false, true);
            default -> {
                int status = List.of(500, 502, 503, 529).get(random.nextInt(4));
                yield new Fault("http-" + status, FakeProviderServer.json(status,
                        OpenAiWire.errorBody("upstream trouble", "server_error", null), Map.of()), false, true);
            }
        };
    }

    private static Fault good() {
        return new Fault("good", FakeProviderServer.sse(OpenAiWire.textReply("All ", "good.")), true, false);
    }

    private static Fault drip() {
        return new Fault("drip", FakeProviderServer.sse(OpenAiWire.textReply("S", "l", "o", "w", "l", "y", "."))
                .withDelay(40), true, false);
    }

    private static Fault badRequest() {
        return new Fault("http-400", FakeProviderServer.json(400,
                OpenAiWire.errorBody("Invalid 'messages'", "invalid_request_error", "invalid_value"), Map.of()),
                false, false);
    }

    /** The first agent_end{willRetry:false} or auto_retry_end{success:false} after {@code from}. */
    private JsonNode awaitTerminal(int from, String context) {
        Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> terminal(from) != null || !daemon.process().isAlive());
        JsonNode terminal = terminal(from);
        if (terminal == null) {
            throw new AssertionError(context + ": no terminal event; stderr:\n" + daemon.stderr());
        }
        return terminal;
    }

    private JsonNode terminal(int from) {
        List<JsonNode> records = daemon.records();
        for (JsonNode record : records.subList(Math.min(from, records.size()), records.size())) {
            String type = record.path("type").asText();
            if ("agent_end".equals(type) && !record.path("willRetry").asBoolean()
                    || "auto_retry_end".equals(type) && !record.path("success").asBoolean()) {
                return record;
            }
        }
        return null;
    }

    /**
     * No run and no retry chain left behind. Polls with get_state without blocking inside the
     * condition: each evaluation either reads the last probe's answer or sends the next probe.
     */
    private void awaitIdle(int p) throws IOException {
        String[] probe = {"idle-" + p + "-0"};
        int[] next = {1};
        daemon.send(command("get_state", probe[0]));
        Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            JsonNode answer = daemon.records().stream().filter(node -> probe[0].equals(node.path("id").asText()))
                    .findFirst().orElse(null);
            if (answer == null) {
                return false;
            }
            JsonNode state = answer.path("data");
            if (!state.path("isStreaming").asBoolean() && !state.path("isRetrying").asBoolean()) {
                return true;
            }
            probe[0] = "idle-" + p + "-" + next[0]++;
            daemon.send(command("get_state", probe[0]));
            return false;
        });
    }

    /** A prompt that retried has exactly one auto_retry_end, successful iff the prompt succeeded. */
    private void assertChainClosed(int from, boolean retried, boolean succeeded, String context) {
        List<JsonNode> records = daemon.records();
        List<JsonNode> ends = records.subList(from, records.size()).stream()
                .filter(node -> "auto_retry_end".equals(node.path("type").asText())).toList();
        long finals = records.subList(from, records.size()).stream()
                .filter(node -> "agent_end".equals(node.path("type").asText()) && !node.path("willRetry").asBoolean())
                .count();
        assertEquals(1, finals, context + ": one final agent_end");
        if (!retried) {
            assertEquals(0, ends.size(), context + ": no retry chain");
            return;
        }
        assertEquals(1, ends.size(), context + ": one auto_retry_end");
        assertEquals(succeeded, ends.get(0).path("success").asBoolean(), context + ": " + ends.get(0));
    }

    private static JsonNode lastReply(JsonNode agentEnd) {
        JsonNode messages = agentEnd.path("messages");
        return messages.get(messages.size() - 1);
    }
}
