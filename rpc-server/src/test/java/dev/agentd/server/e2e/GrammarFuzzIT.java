package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.testing.http.FakeProviderServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 point 8, through the real jar: batches of grammar-aware client lines ({@link FuzzGrammar})
 * written in random pieces, with prompt / steer / abort / abort_retry races, against an HTTP
 * provider that answers with {@link HostileReplies}. After every batch the daemon answers
 * get_state, every id is answered, abort ends whatever runs and every started run has ended
 * (agent_start = agent_end); at the end EOF exits 0, every stdout line is JSON, each id was
 * answered exactly once, and the key is in neither stdout nor the session file. Seeded and
 * bounded: {@code -Dagentd.fuzz.seed}, {@code .inputs}, {@code .seconds}, {@code .batch}; the
 * figures go to {@code -Dagentd.fuzz.figures} (bench/fuzz.sh). The seed is in every failure.
 */
class GrammarFuzzIT {
    private static final long SEED = Long.getLong("agentd.fuzz.seed", 0x6A77_12L);
    private static final int INPUTS = Integer.getInteger("agentd.fuzz.inputs", 3000);
    private static final long SECONDS = Long.getLong("agentd.fuzz.seconds", 20);
    private static final int BATCH = Integer.getInteger("agentd.fuzz.batch", 300);
    private static final String KEY = "sk-fuzz-SECRET-9f3a";

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
    void grammarAwareInputAndHostileRepliesNeverWedgeNorLeak() throws Exception {
        server = FakeProviderServer.start();
        Path agentDir = LocalProvider.agentDir(dir, server, KEY);
        Files.writeString(agentDir.resolve("settings.json"), """
                {"retry":{"baseDelayMs":5,"maxRetries":1,
                  "provider":{"streamStartTimeoutMs":400,"streamIdleTimeoutMs":300}}}
                """);
        daemon = DaemonProcess.start(agentDir, dir, "--model", "local/local-model");
        daemon.awaitNth("ready", 1);

        FuzzGrammar grammar = new FuzzGrammar(SEED);
        HostileReplies replies = new HostileReplies(SEED + 1, KEY);
        Random pieces = new Random(SEED + 2);
        Map<String, Integer> expected = new HashMap<>();
        long start = System.nanoTime();
        long deadline = start + SECONDS * 1_000_000_000L;
        int inputs = 0;
        int batches = 0;
        while (inputs < INPUTS && System.nanoTime() < deadline) {
            String context = "seed " + SEED + ", batch " + batches;
            for (int i = 0; i < 4; i++) {
                server.enqueue(replies.next());
            }
            List<FuzzInput.Line> lines = grammar.lines(Math.min(BATCH, INPUTS - inputs), 25);
            lines.forEach(line -> {
                if (line.expectedId() != null) {
                    expected.merge(line.expectedId(), 1, Integer::sum);
                }
            });
            daemon.sendInPieces(FuzzInput.join(lines), pieces);
            inputs += lines.size();
            batches++;
            JsonNode state = daemon.request(command("get_state", "state-" + batches));
            assertEquals("get_state", state.path("command").asText(), context);
            expected.put("state-" + batches, 1);
            endBatch(batches, expected, context);
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        String context = "seed " + SEED + "; stderr:\n" + daemon.stderr();
        assertEquals(0, daemon.closeStdinAndWait(), "exit code after EOF; " + context);
        assertEquals(List.of(), daemon.nonJsonLines(), "every stdout line is JSON; " + context);
        Map<String, Integer> wrong = new TreeMap<>();
        Map<String, Integer> answered = answeredIds();
        expected.forEach((id, count) -> {
            if (!count.equals(answered.getOrDefault(id, 0))) {
                wrong.put(abbreviated(id), answered.getOrDefault(id, 0));
            }
        });
        assertEquals(Map.of(), wrong, "ids answered a wrong number of times (" + context + ")");
        assertTrue(daemon.rawLines().stream().noneMatch(line -> line.contains(KEY)), "the key reached stdout");
        assertTrue(daemon.stderr().indexOf(KEY) < 0, "the key reached stderr");
        assertTrue(sessionFilesText(agentDir).length() > 0, "the session was written");
        assertTrue(sessionFilesText(agentDir).indexOf(KEY) < 0, "the key reached the session file");
        figures(inputs, batches, seconds);
    }

    /** Every id so far answered, then abort, then idle with every started run ended. */
    private void endBatch(int batch, Map<String, Integer> expected, String context) throws IOException {
        Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .failFast("the daemon died; " + context, () -> !daemon.process().isAlive())
                .until(() -> answeredIds().keySet().containsAll(expected.keySet()));
        String abort = "end-abort-" + batch;
        expected.put(abort, 1);
        daemon.request(command("abort", abort));
        String[] probe = {"idle-" + batch + "-0"};
        int[] next = {1};
        daemon.send(command("get_state", probe[0]));
        Waits.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            JsonNode answer = daemon.records().stream().filter(node -> probe[0].equals(node.path("id").asText()))
                    .findFirst().orElse(null);
            if (answer == null) {
                return false;
            }
            JsonNode data = answer.path("data");
            if (!data.path("isStreaming").asBoolean() && !data.path("isRetrying").asBoolean() && runsEnded()) {
                return true;
            }
            daemon.send(command("abort", "again-" + probe[0]));
            probe[0] = "idle-" + batch + "-" + next[0]++;
            daemon.send(command("get_state", probe[0]));
            return false;
        });
        for (int i = 0; i < next[0]; i++) {
            expected.put("idle-" + batch + "-" + i, 1);
            if (i < next[0] - 1) {
                expected.put("again-idle-" + batch + "-" + i, 1);
            }
        }
    }

    private boolean runsEnded() {
        long starts = daemon.types().stream().filter("agent_start"::equals).count();
        long ends = daemon.types().stream().filter("agent_end"::equals).count();
        return starts == ends;
    }

    private Map<String, Integer> answeredIds() {
        Map<String, Integer> counts = new HashMap<>();
        for (JsonNode record : daemon.records()) {
            if ("response".equals(record.path("type").asText()) && record.path("id").isTextual()) {
                counts.merge(record.path("id").asText(), 1, Integer::sum);
            }
        }
        return counts;
    }

    private static String sessionFilesText(Path agentDir) throws IOException {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(agentDir)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".jsonl")).toList()) {
                text.append(Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        return text.toString();
    }

    private static String abbreviated(String id) {
        return id.length() <= 40 ? id : id.substring(0, 40) + "…(" + id.length() + ")";
    }

    private void figures(int inputs, int batches, double seconds) throws IOException {
        String text = String.format(java.util.Locale.ROOT,
                "seed %d: %d inputs in %d batches, %d provider requests, %d stdout records, 0 failures, %.1f s%n",
                SEED, inputs, batches, server.requestCount(), daemon.records().size(), seconds);
        System.out.print("GrammarFuzzIT " + text);
        String file = System.getProperty("agentd.fuzz.figures");
        if (file != null) {
            Files.writeString(Path.of(file), text);
        }
    }
}
