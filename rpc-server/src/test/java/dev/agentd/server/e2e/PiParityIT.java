package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.server.e2e.ParityAllowList.Side;
import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.FakeProviderServer.Reply;
import dev.agentd.server.testing.http.OpenAiWire;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same scripted scenarios against pi 1.6.0 itself (its CLI in {@code --mode rpc}, the npm
 * package {@code @earendil-works/pi-coding-agent} installed with its dependencies into
 * {@code target/pi16}) and against agentd's jar, both on one scripted OpenAI-compatible provider
 * reached through a models.json custom provider, each in its own fresh agent dir and HOME. Both
 * sides' records are normalised ({@link ParityNormal}), the accepted differences removed
 * ({@link ParityAllowList}), and what is left must be equal record by record, field by field.
 */
class PiParityIT {
    static final Path PI_INSTALL = Path.of("target/pi16").toAbsolutePath();
    static final Path PI_CLI = PI_INSTALL.resolve("node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");
    static final String MODEL = "local/local-model";
    static final String OVERLOADED = OpenAiWire.errorBody("Overloaded", "overloaded_error", null);

    static Path node;

    @TempDir
    Path dir;
    String scenario = "scenario";

    @BeforeEach
    void name(TestInfo info) {
        scenario = info.getTestMethod().map(Method::getName).orElse("scenario");
    }

    @BeforeAll
    static void installPi() throws Exception {
        node = Pi16ClientIT.node22();
        NodeDrivers.install(PI_INSTALL, List.of(Pi16ClientIT.PACKAGE), List.of(PI_CLI));
    }

    /** What the test does to one peer; it returns once the scenario's last record has arrived. */
    interface Driver {
        void drive(ParityPeer peer, Provider provider) throws Exception;
    }

    /** A scripted reply; a held one is sent only once the test releases the provider. */
    record Step(Reply reply, boolean held) {
        static Step now(Reply reply) {
            return new Step(reply, false);
        }
    }

    /** Answers requests with the steps in order, holding a held step's request until {@link #release}. */
    static final class Provider implements AutoCloseable {
        final FakeProviderServer server = FakeProviderServer.start();
        private final Deque<Step> steps;
        private final CountDownLatch released = new CountDownLatch(1);
        private final CountDownLatch holding = new CountDownLatch(1);

        Provider(List<Step> steps) {
            this.steps = new ArrayDeque<>(steps);
            server.otherwise(request -> next());
        }

        private Reply next() {
            Step step;
            synchronized (steps) {
                step = steps.pollFirst();
            }
            if (step == null) {
                return FakeProviderServer.json(500, OpenAiWire.errorBody("no scripted reply", "test", null), Map.of());
            }
            if (step.held()) {
                holding.countDown();
                try {
                    released.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return step.reply();
        }

        /** Waits until a held request has arrived. */
        void awaitHeld() throws InterruptedException {
            assertTrue(holding.await(60, TimeUnit.SECONDS), "the held request did not arrive");
        }

        void release() {
            released.countDown();
        }

        @Override
        public void close() {
            release();
            server.close();
        }
    }

    // ---- scenarios -------------------------------------------------------------------------------

    @Test
    void plainTextPrompt() throws Exception {
        compare(List.of(Step.now(text("Hel", "lo, ", "wor", "ld!"))), (peer, provider) -> {
            int from = peer.size();
            peer.send(command("prompt", "c-1", "message", "hi"));
            peer.awaitType(from, "agent_settled");
        });
    }

    @Test
    void toolCallThenFinalReply() throws Exception {
        compare(List.of(Step.now(toolCall("call_read1", "read", "{\"path\":\"notes.txt\"}")),
                Step.now(text("The file ", "says hello."))), (peer, provider) -> {
                    int from = peer.size();
                    peer.send(command("prompt", "c-1", "message", "read notes.txt"));
                    peer.awaitType(from, "agent_settled");
                });
        // the normalisation and the allow-list hide none of these
        assertNoticed("no agent_settled", ParityAllowList.dropRecords(ParityAllowList.type("agent_settled")));
        assertNoticed("tool_execution_end without durationMs", onToolEnd(node -> node.remove("durationMs")));
        assertNoticed("tool_execution_end with isError flipped", onToolEnd(node -> node.put("isError", true)));
        assertNoticed("tool_execution_end with another tool name", onToolEnd(node -> node.put("toolName", "cat")));
        assertNoticed("tool_execution_end with an extra field", onToolEnd(node -> node.put("extra", 1)));
        assertNoticed("a different result text", onToolEnd(node -> ((ObjectNode)
                node.path("result").path("content").path(0)).put("text", "other")));
    }

    @Test
    void bashToolCall() throws Exception {
        // the pause makes both sides stream the first line before the end: agentd sends what it
        // gathered every 100 ms, so a command that ends sooner gets no update from it at all
        compare(List.of(Step.now(toolCall("call_bash1", "bash",
                "{\"command\":\"echo one; sleep 1; echo two >&2\"}")),
                Step.now(text("ran"))), (peer, provider) -> {
                    int from = peer.size();
                    peer.send(command("prompt", "c-1", "message", "run it"));
                    peer.awaitType(from, "agent_settled");
                });
    }

    @Test
    void overloadedIsRetriedThenSucceeds() throws Exception {
        compare(List.of(Step.now(FakeProviderServer.json(529, OVERLOADED, Map.of())),
                Step.now(text("after ", "the retry"))), (peer, provider) -> {
                    int from = peer.size();
                    peer.send(command("prompt", "c-1", "message", "hi"));
                    peer.awaitType(from, "agent_settled");
                });
    }

    @Test
    void abortDuringTheRetryBackoff() throws Exception {
        // a one-minute backoff: the abort always lands while the retry waits
        compare(60_000, List.of(Step.now(FakeProviderServer.json(529, OVERLOADED, Map.of()))), (peer, provider) -> {
            int from = peer.size();
            peer.send(command("prompt", "c-1", "message", "hi"));
            peer.awaitType(from, "auto_retry_start");
            peer.request(command("abort", "c-2"));
            peer.awaitType(from, "agent_settled");
        });
    }

    @Test
    void steerAndFollowUpQueuedWhileStreaming() throws Exception {
        compare(List.of(new Step(text("first ", "answer"), true), Step.now(text("steered")),
                Step.now(text("followed"))), (peer, provider) -> {
                    int from = peer.size();
                    peer.send(command("prompt", "c-1", "message", "start"));
                    provider.awaitHeld();
                    peer.request(command("steer", "c-2", "message", "steer here"));
                    peer.request(command("follow_up", "c-3", "message", "then this"));
                    provider.release();
                    peer.awaitType(from, "agent_settled");
                });
    }

    @Test
    void abortWhileStreaming() throws Exception {
        Reply hanging = FakeProviderServer.sse(List.of(OpenAiWire.role(), OpenAiWire.content("partial")))
                .ending(FakeProviderServer.End.HANG);
        compare(List.of(Step.now(hanging)), (peer, provider) -> {
            int from = peer.size();
            peer.send(command("prompt", "c-1", "message", "hi"));
            peer.await(from, "the first text delta", node -> "text_delta".equals(
                    node.path("assistantMessageEvent").path("type").asText()));
            peer.request(command("abort", "c-2"));
            peer.awaitType(from, "agent_settled");
        });
    }

    @Test
    void entriesAndTree() throws Exception {
        compare(List.of(Step.now(text("one")), Step.now(text("two"))), (peer, provider) -> {
            for (String id : List.of("c-1", "c-2")) {
                int from = peer.size();
                peer.send(command("prompt", id, "message", "say " + id));
                peer.awaitType(from, "agent_settled");
            }
            JsonNode all = peer.request(command("get_entries", "c-3"));
            String cursor = all.path("data").path("entries").path(1).path("id").asText();
            peer.request(command("get_entries", "c-4", "since", cursor));
            peer.request(command("get_tree", "c-5"));
        });
    }

    // ---- the comparison ----------------------------------------------------------------------------

    /** One side's run: its raw records after start-up, its temporary root, the requests the provider got. */
    record Run(Side side, List<JsonNode> raw, String root, List<String> requests) {
        List<JsonNode> prepared(UnaryOperator<List<JsonNode>> change) {
            return ParityNormal.normalise(ParityAllowList.apply(side, change.apply(raw)), root);
        }
    }

    private Run lastPi;
    private Run lastAgentd;

    private void compare(List<Step> steps, Driver driver) throws Exception {
        compare(50, steps, driver);
    }

    /** Runs the scenario on both sides with retry.baseDelayMs {@code baseDelayMs}; fails on any difference. */
    private void compare(long baseDelayMs, List<Step> steps, Driver driver) throws Exception {
        lastPi = run(Side.PI, baseDelayMs, steps, driver);
        lastAgentd = run(Side.AGENTD, baseDelayMs, steps, driver);
        assertEquals(lastPi.requests(), lastAgentd.requests(), "the requests the provider received");
        String difference = difference(lastAgentd.prepared(records -> records));
        if (difference != null) {
            throw new AssertionError(difference);
        }
    }

    /** Null when pi's prepared records equal {@code agentd}; else a report, record by record, field by field. */
    private String difference(List<JsonNode> agentd) {
        List<JsonNode> pi = lastPi.prepared(records -> records);
        List<String> piLines = pi.stream().map(node -> ParityNormal.sorted(node).toString()).toList();
        List<String> agentdLines = agentd.stream().map(node -> ParityNormal.sorted(node).toString()).toList();
        if (piLines.equals(agentdLines)) {
            return null;
        }
        StringBuilder report = new StringBuilder("pi 1.6.0 and agentd differ (after normalisation and the"
                + " allow-list; raw records in target/parity)\n  pi types:     " + types(pi)
                + "\n  agentd types: " + types(agentd) + "\n");
        JsonNode absent = MissingNode.getInstance();
        for (int i = 0; i < Math.max(pi.size(), agentd.size()); i++) {
            JsonNode a = i < pi.size() ? pi.get(i) : absent;
            JsonNode b = i < agentd.size() ? agentd.get(i) : absent;
            ParityNormal.differences(a, b, "#" + i + "(" + a.path("type").asText() + "/" + b.path("type").asText()
                    + ")").forEach(line -> report.append("  ").append(line).append('\n'));
        }
        return report.toString();
    }

    /** The comparison notices when agentd's records are changed by {@code mutation}. */
    private void assertNoticed(String what, UnaryOperator<List<JsonNode>> mutation) {
        List<JsonNode> mutated = lastAgentd.prepared(records -> mutation.apply(
                records.stream().map(node -> (JsonNode) node.deepCopy()).toList()));
        assertTrue(difference(mutated) != null, "the parity comparison missed: " + what);
    }

    private static UnaryOperator<List<JsonNode>> onToolEnd(
            Consumer<ObjectNode> change) {
        return records -> {
            records.stream().filter(ParityAllowList.type("tool_execution_end"))
                    .forEach(node -> change.accept((ObjectNode) node));
            return records;
        };
    }

    private static List<String> types(List<JsonNode> records) {
        return records.stream().map(node -> node.path("type").asText()
                + (node.has("command") ? ":" + node.path("command").asText() : "")).toList();
    }

    /** Runs the scenario on one side; its records after start-up (kept raw in target/parity too). */
    private Run run(Side side, long baseDelayMs, List<Step> steps, Driver driver) throws Exception {
        Path root = Files.createDirectories(dir.resolve(side.name().toLowerCase(Locale.ROOT)));
        Path work = Files.createDirectories(root.resolve("work"));
        Path home = Files.createDirectories(root.resolve("home"));
        Files.writeString(work.resolve("notes.txt"), "hello\nfrom notes\n");
        try (Provider provider = new Provider(steps)) {
            Path agent = LocalProvider.agentDir(root, provider.server, "test-key");
            // the same retry settings on both sides; pi's SDK must not retry inside an attempt; pi has
            // no jitter, so agentd's is off here (pi ignores the key)
            Files.writeString(agent.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":" + baseDelayMs
                    + ",\"jitterRatio\":0,\"provider\":{\"maxRetries\":0}}}");
            try (ParityPeer peer = start(side, work, agent, home)) {
                peer.request(command("get_state", "c-warm-up"));
                int from = peer.size();
                driver.drive(peer, provider);
                assertEquals(List.of(), peer.nonJsonLines(), side + " wrote lines that are not JSON");
                List<JsonNode> records = peer.records();
                List<JsonNode> window = List.copyOf(records.subList(from, records.size()));
                dump(side, window);
                List<String> requests = provider.server.requests().stream()
                        .map(request -> request.method() + " " + request.path()).toList();
                return new Run(side, window, root.toString(), requests);
            }
        }
    }

    /** Keeps the raw records in {@code target/parity/<test>-<side>.jsonl} for a reader of a failure. */
    private void dump(Side side, List<JsonNode> records) throws IOException {
        Path out = Files.createDirectories(Path.of("target/parity"));
        StringBuilder lines = new StringBuilder();
        records.forEach(record -> lines.append(record).append('\n'));
        Files.writeString(out.resolve(scenario + "-" + side.name().toLowerCase(Locale.ROOT) + ".jsonl"),
                lines);
    }

    private static ParityPeer start(Side side, Path work, Path agent, Path home) throws IOException {
        if (side == Side.PI) {
            return ParityPeer.start("pi", List.of(node.toString(), PI_CLI.toString(), "--mode", "rpc",
                    "--no-session", "--model", MODEL), work, Map.of("HOME", home.toString(),
                    "PI_CODING_AGENT_DIR", agent.toString(), "PI_OFFLINE", "1", "PI_SKIP_VERSION_CHECK", "1",
                    "PI_TELEMETRY", "0"));
        }
        List<String> command = new ArrayList<>(DaemonProcess.javaCommand());
        // agentd's default update form is pi 1.x's delta form, as pi's default is
        command.addAll(List.of("--no-session", "--model", MODEL));
        return ParityPeer.start("agentd", command, work, Map.of("HOME", home.toString(),
                "AGENTD_DIR", agent.toString()));
    }

    // ---- provider replies --------------------------------------------------------------------------

    private static Reply text(String... deltas) {
        return FakeProviderServer.sse(OpenAiWire.textReply(deltas));
    }

    private static Reply toolCall(String id, String tool, String arguments) {
        return FakeProviderServer.sse(List.of(OpenAiWire.role(), OpenAiWire.toolCallStart(0, id, tool),
                OpenAiWire.toolCallArgs(0, arguments), OpenAiWire.finish("tool_calls"),
                OpenAiWire.usage(20, 8, 0, 0), OpenAiWire.done()));
    }
}
