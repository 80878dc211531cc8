package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.server.mcp.McpConfig;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.tools.FileAccess;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.wire.RpcOutput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * N4: list and load run on a worker, so the reader answers meanwhile; N15: a cancel with an id is
 * answered; N17: undecodable image data is named; N5: a session another process writes is refused.
 */
class AcpStoredSessionsTest {
    @TempDir
    Path dir;
    private final List<SessionHarness> harnesses = new CopyOnWriteArrayList<>();
    private final CountDownLatch listing = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean blockListing;
    private volatile boolean refuseOpen;

    private final SessionOpener opener = new SessionOpener() {
        @Override
        public AgentSession open(Path cwd, Path existing, FileAccess files, UnaryOperator<List<Tool>> decorate,
                    McpConfig.Parsed mcp, Consumer<String> problems)
                throws IOException {
            if (existing != null && refuseOpen) {
                throw new Refused("session " + existing + " is open in another agentd process (pid 7)");
            }
            SessionHarness harness = SessionHarness.create(dir);
            harnesses.add(harness);
            return harness.session;
        }

        @Override
        public List<Stored> stored(Path cwd) {
            if (blockListing) {
                listing.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS); // a listing of slow, huge files
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (cwd == null) { // every directory's: one here and one elsewhere, one whose directory is unknown
                return List.of(new Stored("stored-1", dir.toString(), dir.resolve("stored.jsonl"), "old",
                        "2026-01-01T00:00:00Z"), new Stored("elsewhere-1", "/elsewhere", dir.resolve("e.jsonl"), null,
                        "2026-01-01T00:00:00Z"), new Stored("lost-1", null, dir.resolve("l.jsonl"), null,
                        "2026-01-01T00:00:00Z"));
            }
            return List.of(new Stored("stored-1", cwd.toString(), dir.resolve("stored.jsonl"), "old", "2026-01-01T00:00:00Z"));
        }

        @Override
        public Optional<String> setting(String path) {
            return Optional.empty();
        }
    };

    @AfterEach
    void closeHarnesses() {
        release.countDown();
        harnesses.forEach(SessionHarness::close);
    }

    private static List<JsonNode> parse(ByteArrayOutputStream out) throws IOException {
        List<JsonNode> written = new ArrayList<>();
        String text = out.toString(StandardCharsets.UTF_8);
        for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
            if (!line.isBlank()) {
                written.add(Json.mapper().readTree(line));
            }
        }
        return written;
    }

    private static Optional<JsonNode> reply(List<JsonNode> written, int id) {
        return written.stream().filter(n -> n.path("id").asInt(-1) == id && !n.has("method")).findFirst();
    }

    private List<JsonNode> serveAll(String... lines) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] input = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        new AcpMode(new ByteArrayInputStream(input), new RpcOutput(new JsonlWriter(out, Json.mapper()), () -> { }),
                opener, new FakeScheduler(), 1 << 20, "test").serve();
        return parse(out);
    }

    private String newSession() {
        return "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/new\",\"params\":{\"cwd\":\"" + dir + "\"}}";
    }

    /** AcpMode serving a pipe on its own reader thread, after a {@code session/new} (id 2) was answered. */
    private final class Piped {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PipedOutputStream client = new PipedOutputStream();
        final Thread reader;

        Piped() throws IOException {
            PipedInputStream in = new PipedInputStream(client, 1 << 16);
            reader = new Thread(() -> new AcpMode(in, new RpcOutput(new JsonlWriter(out, Json.mapper()), () -> { }),
                    opener, new FakeScheduler(), 1 << 20, "test").serve(), "test-acp-reader");
            reader.start();
            client.write((newSession() + "\n").getBytes(StandardCharsets.UTF_8));
            client.flush();
            Waits.await().atMost(Duration.ofSeconds(30)).until(() -> reply(parse(out), 2).isPresent());
        }
    }

    @Test
    void theReaderAnswersACancelWhileALoadIsStillListing() throws Exception {
        blockListing = true;
        Piped piped = new Piped();
        ByteArrayOutputStream out = piped.out;
        PipedOutputStream client = piped.client;
        Thread reader = piped.reader;
        String live = reply(parse(out), 2).orElseThrow().path("result").path("sessionId").asText();
        client.write(("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/load\",\"params\":{\"sessionId\":\"stored-1\","
                + "\"cwd\":\"" + dir + "\",\"mcpServers\":[]}}\n").getBytes(StandardCharsets.UTF_8));
        client.flush();
        assertTrue(listing.await(30, TimeUnit.SECONDS), "the load is listing");
        client.write(("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/cancel\",\"params\":{\"sessionId\":\"" + live
                + "\"}}\n").getBytes(StandardCharsets.UTF_8));
        client.flush();
        Waits.await().atMost(Duration.ofSeconds(30)).until(() -> reply(parse(out), 4).isPresent());
        assertFalse(reply(parse(out), 3).isPresent(), "the load is still running");
        release.countDown();
        Waits.await().atMost(Duration.ofSeconds(30)).until(() -> reply(parse(out), 3).isPresent());
        assertTrue(reply(parse(out), 3).orElseThrow().path("result").has("configOptions"), parse(out).toString());
        client.close();
        reader.join(30_000);
    }

    @Test
    void aCancelSentWithAnIdIsAnsweredAndANotificationIsNot() throws Exception {
        Piped piped = new Piped();
        ByteArrayOutputStream out = piped.out;
        PipedOutputStream client = piped.client;
        Thread reader = piped.reader;
        String id = reply(parse(out), 2).orElseThrow().path("result").path("sessionId").asText();
        client.write(("{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\",\"params\":{\"sessionId\":\"" + id + "\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/cancel\",\"params\":{\"sessionId\":\"" + id + "\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"session/cancel\",\"params\":{\"sessionId\":\"nope\"}}\n")
                .getBytes(StandardCharsets.UTF_8));
        client.close();
        reader.join(30_000);
        List<JsonNode> written = parse(out);
        assertEquals(AcpJson.object(), reply(written, 5).orElseThrow().path("result"), written.toString());
        assertEquals(-32602, reply(written, 6).orElseThrow().path("error").path("code").asInt());
        assertEquals(List.of(2, 5, 6), written.stream().filter(n -> n.has("id") && !n.has("method"))
                .map(n -> n.path("id").asInt()).toList(), "one answer per request with an id: " + written);
    }

    @Test
    void undecodableImageDataIsNamedNotCalledAnEmptyMessage() throws Exception {
        Piped piped = new Piped();
        ByteArrayOutputStream out = piped.out;
        PipedOutputStream client = piped.client;
        Thread reader = piped.reader;
        String id = reply(parse(out), 2).orElseThrow().path("result").path("sessionId").asText();
        client.write(("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"" + id
                + "\",\"prompt\":[{\"type\":\"text\",\"text\":\"look\"},{\"type\":\"image\",\"mimeType\":\"image/png\","
                + "\"data\":\"%%% not base64 %%%\"}]}}\n").getBytes(StandardCharsets.UTF_8));
        client.close();
        reader.join(30_000);
        JsonNode error = reply(parse(out), 3).orElseThrow().path("error");
        assertEquals(-32602, error.path("code").asInt());
        assertEquals("Invalid params: image data is not valid base64 (content block 1)", error.path("message").asText());
    }

    @Test
    void aSessionAnotherProcessWritesIsRefusedWithTheReason() throws IOException {
        refuseOpen = true;
        List<JsonNode> written = serveAll("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/load\",\"params\":"
                + "{\"sessionId\":\"stored-1\",\"cwd\":\"" + dir + "\",\"mcpServers\":[]}}");
        JsonNode error = reply(written, 3).orElseThrow().path("error");
        assertEquals(-32000, error.path("code").asInt());
        assertTrue(error.path("message").asText().contains("is open in another agentd process (pid 7)"), error.toString());
    }

    @Test
    void setModelIsTheModelOptionAndSetModeIsNotFound() throws Exception {
        Piped piped = new Piped();
        String id = reply(parse(piped.out), 2).orElseThrow().path("result").path("sessionId").asText();
        String session = "\"params\":{\"sessionId\":\"" + id + "\",";
        piped.client.write(("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/set_model\"," + session
                + "\"modelId\":\"faux/faux-2\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/set_config_option\"," + session
                + "\"configId\":\"thought_level\",\"value\":\"low\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/set_model\"," + session + "\"modelId\":\"no/such\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"session/set_mode\"," + session + "\"modeId\":\"code\"}}\n")
                .getBytes(StandardCharsets.UTF_8));
        piped.client.close();
        piped.reader.join(30_000);
        List<JsonNode> written = parse(piped.out);
        assertEquals("{}", reply(written, 3).orElseThrow().path("result").toString(), written.toString());
        JsonNode options = reply(written, 4).orElseThrow().path("result").path("configOptions");
        assertEquals("faux/faux-2", options.path(0).path("currentValue").asText(), options.toString());
        assertEquals(-32602, reply(written, 5).orElseThrow().path("error").path("code").asInt());
        assertEquals(-32601, reply(written, 6).orElseThrow().path("error").path("code").asInt());
    }

    @Test
    void aListWithoutCwdListsEverySessionAndOneWithCwdThatDirectorysOnly() throws Exception {
        Piped piped = new Piped();
        piped.client.write(("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/list\",\"params\":{}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/list\",\"params\":{\"cwd\":\"" + dir + "\"}}\n")
                .getBytes(StandardCharsets.UTF_8));
        piped.client.flush();
        Waits.await().atMost(Duration.ofSeconds(30)).until(() -> reply(parse(piped.out), 4).isPresent());
        List<JsonNode> written = parse(piped.out);
        JsonNode all = reply(written, 3).orElseThrow().path("result").path("sessions");
        assertEquals(2, all.size(), all.toString());
        assertEquals("/elsewhere", all.path(1).path("cwd").asText());
        assertEquals(1, reply(written, 4).orElseThrow().path("result").path("sessions").size());
        piped.client.close();
        piped.reader.join(30_000);
    }

    @Test
    void aBusySessionAndAPromptThatIsNoArrayGetAcpWords() throws Exception {
        Piped piped = new Piped();
        String id = reply(parse(piped.out), 2).orElseThrow().path("result").path("sessionId").asText();
        // a reply that waits for the fake clock, which never moves: the first prompt keeps running
        harnesses.get(0).script.enqueue(null, List.of(FauxStep.text("slow").withDelayMs(600_000)));
        String prompt = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"" + id
                + "\",\"prompt\":%s}}\n";
        piped.client.write((prompt.formatted(3, "[{\"type\":\"text\",\"text\":\"first\"}]")
                + prompt.formatted(4, "[{\"type\":\"text\",\"text\":\"second\"}]")
                + prompt.formatted(5, "\"just a string\"")
                + prompt.formatted(6, "[{\"type\":\"text\",\"text\":\"  \"}]")).getBytes(StandardCharsets.UTF_8));
        piped.client.flush();
        Waits.await().atMost(Duration.ofSeconds(30)).until(() -> reply(parse(piped.out), 6).isPresent());
        List<JsonNode> written = parse(piped.out);
        assertTrue(written.stream().anyMatch(n -> n.path("params").path("update").path("sessionUpdate").asText()
                .equals("session_info_update") && n.path("params").path("update").path("title").asText().equals("first")),
                "the first prompt titles the session (A8): " + written);
        JsonNode busy = reply(written, 4).orElseThrow().path("error");
        assertEquals(-32602, busy.path("code").asInt());
        assertTrue(busy.path("message").asText().startsWith("Session is busy"), busy.toString());
        assertFalse(busy.path("message").asText().contains("streamingBehavior"), "no pi-dialect fields: " + busy);
        JsonNode notArray = reply(written, 5).orElseThrow().path("error");
        assertEquals(-32602, notArray.path("code").asInt());
        assertTrue(notArray.path("message").asText().contains("prompt must be an array of content blocks"),
                notArray.toString());
        assertTrue(reply(written, 6).orElseThrow().path("error").path("message").asText().contains("no text"),
                written.toString());
        piped.client.close();
        piped.reader.join(30_000);
    }

    @Test
    void compactInAPromptIsTheManualCompactionAnsweredWhenDone() throws Exception {
        Piped piped = new Piped();
        String id = reply(parse(piped.out), 2).orElseThrow().path("result").path("sessionId").asText();
        harnesses.get(0).script.enqueue(null, List.of(FauxStep.text("a1"), FauxStep.text("manual summary")));
        String prompt = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"" + id
                + "\",\"prompt\":[{\"type\":\"text\",\"text\":\"%s\"}]}}\n";
        piped.client.write(prompt.formatted(3, "q1").getBytes(StandardCharsets.UTF_8));
        piped.client.flush();
        Waits.await().atMost(Duration.ofSeconds(30)).until(() -> reply(parse(piped.out), 3).isPresent());
        piped.client.write(prompt.formatted(4, "/compact keep the names").getBytes(StandardCharsets.UTF_8));
        piped.client.flush();
        Waits.await().atMost(Duration.ofSeconds(30)).until(() -> reply(parse(piped.out), 4).isPresent());
        List<JsonNode> written = parse(piped.out);
        assertEquals("end_turn", reply(written, 4).orElseThrow().path("result").path("stopReason").asText(),
                written.toString());
        assertTrue(written.stream().anyMatch(n -> n.path("params").path("update").path("content").path("text").asText()
                .startsWith("Compacted the conversation")), "said, to a client without session.compaction: " + written);
        assertTrue(harnesses.get(0).session.messages().stream().anyMatch(m -> m.toString().contains("manual summary")),
                "the summary is the context now");
        piped.client.close();
        piped.reader.join(30_000);
    }
}
