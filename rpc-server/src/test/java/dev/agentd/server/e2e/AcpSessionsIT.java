package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.sessionfile.SessionLock;
import dev.agentd.server.sessionfile.SessionLockedException;
import dev.agentd.server.testing.Replies;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stored sessions over raw ACP JSON-RPC and the rpc dialect, against the real jar: list and load
 * leave the reader free (N4), one process writes a session (N5), {@code --continue} survives an
 * oversized latest file (N2), a cancel with an id is answered (N15), files sharing a header id are
 * each loadable (N17).
 */
class AcpSessionsIT {
    @TempDir
    Path dir;

    private static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private static JsonNode answer(DaemonProcess daemon, int id) {
        return daemon.await(n -> n.path("id").asInt(-1) == id && !n.has("method") && n.has("jsonrpc"));
    }

    private static int indexOfAnswer(DaemonProcess daemon, int id) {
        List<JsonNode> records = daemon.records();
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).path("id").asInt(-1) == id && !records.get(i).has("method")) {
                return i;
            }
        }
        return -1;
    }

    private static DaemonProcess acp(Path agent, Path work) throws IOException {
        DaemonProcess daemon = DaemonProcess.start(agent, work, "--mode", "acp", "--model", "faux/faux-1");
        daemon.send(request(1, "initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}"));
        answer(daemon, 1);
        return daemon;
    }

    /** The directory agentd keeps the sessions of {@code work} in (SPEC §7). */
    private static Path sessionsOf(Path agent, Path work) {
        return agent.resolve("sessions").resolve("--" + work.toString().substring(1).replaceAll("[/\\\\:]", "-") + "--");
    }

    private static AgentMessage.User user(String text) {
        return new AgentMessage.User(List.of(new ContentBlock.Text(text)), 1);
    }

    private static AgentMessage.Assistant reply(String text) {
        return Replies.reply().text(text).at(2).build();
    }

    @Test
    void aSessionLiveInOneDaemonIsRefusedByTheOtherThenCopiedByContinue() throws Exception {
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work")).toRealPath();
        String sessionId;
        try (DaemonProcess first = acp(agent, work)) {
            first.send(request(2, "session/new", "{\"cwd\":\"" + work + "\",\"mcpServers\":[]}"));
            sessionId = answer(first, 2).path("result").path("sessionId").asText();
            first.send(request(3, "session/prompt", "{\"sessionId\":\"" + sessionId
                    + "\",\"prompt\":[{\"type\":\"text\",\"text\":\"written by the first\"}]}"));
            assertEquals("end_turn", answer(first, 3).path("result").path("stopReason").asText());

            try (DaemonProcess second = acp(agent, work)) {
                second.send(request(2, "session/list", "{\"cwd\":\"" + work + "\"}"));
                JsonNode listed = answer(second, 2).path("result").path("sessions");
                assertEquals(sessionId, listed.path(0).path("sessionId").asText(), listed.toString());
                second.send(request(3, "session/load", "{\"sessionId\":\"" + sessionId + "\",\"cwd\":\"" + work
                        + "\",\"mcpServers\":[]}"));
                JsonNode error = answer(second, 3).path("error");
                assertEquals(-32000, error.path("code").asInt(), error.toString());
                assertTrue(error.path("message").asText().contains("is open in another agentd process (pid "
                        + first.process().pid() + ")"), error.toString());

                // --continue takes a copy of the live session; --session refuses it.
                try (DaemonProcess continued = DaemonProcess.start(agent, work, "--model", "faux/faux-1", "--continue")) {
                    JsonNode ready = continued.awaitNth("ready", 1);
                    String warnings = ready.path("warnings").toString();
                    assertTrue(warnings.contains("is open in another agentd process")
                            && warnings.contains("continuing in a copy of it"), warnings);
                    JsonNode state = continued.request(DaemonProcess.command("get_state", "s"));
                    assertNotEquals(sessionId, state.path("data").path("sessionId").asText(), state.toString());
                    assertTrue(state.path("data").path("messageCount").asInt() >= 2, "the copy holds the history: " + state);
                }
                Path file;
                try (var files = Files.list(sessionsOf(agent, work))) {
                    file = files.filter(f -> f.toString().endsWith(".jsonl")).sorted().findFirst().orElseThrow();
                }
                try (DaemonProcess explicit = DaemonProcess.start(agent, work, "--model", "faux/faux-1",
                        "--session", file.toString())) {
                    assertTrue(explicit.process().waitFor(60, TimeUnit.SECONDS));
                    assertEquals(2, explicit.process().exitValue());
                    assertTrue(explicit.stderr().contains("is open in another agentd process"), explicit.stderr());
                }

                assertEquals(0, first.closeStdinAndWait());
                second.send(request(4, "session/load", "{\"sessionId\":\"" + sessionId + "\",\"cwd\":\"" + work
                        + "\",\"mcpServers\":[]}"));
                assertTrue(answer(second, 4).path("result").has("configOptions"), "free once the first exited");
                assertTrue(second.records().toString().contains("written by the first"), "the history is replayed");
            }
        }
    }

    @Test
    void continueOnAnOversizedLatestSessionStartsANewOneWithAWarning() throws Exception {
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work")).toRealPath();
        Path huge = Files.createDirectories(sessionsOf(agent, work)).resolve("2026-01-01T00-00-00-000Z_huge.jsonl");
        Files.writeString(huge, "{\"type\":\"session\",\"version\":3,\"id\":\"huge\",\"timestamp\":\"t\",\"cwd\":\""
                + work + "\"}\n");
        try (RandomAccessFile raw = new RandomAccessFile(huge.toFile(), "rw")) {
            raw.setLength(SessionFile.MAX_LOAD_BYTES + 1024); // sparse: over the limit without writing 512 MB
        }
        try (DaemonProcess continued = DaemonProcess.start(agent, work, "--model", "faux/faux-1", "--continue")) {
            String warnings = continued.awaitNth("ready", 1).path("warnings").toString();
            assertTrue(warnings.contains(huge.getFileName().toString()) && warnings.contains("the limit is 512 MB")
                    && warnings.contains("starting a new session"), warnings);
            continued.send(DaemonProcess.command("prompt", "p", "message", "still working"));
            continued.awaitNth("agent_end", 1);
            JsonNode state = continued.request(DaemonProcess.command("get_state", "s"));
            assertNotEquals("huge", state.path("data").path("sessionId").asText());
        }
        try (DaemonProcess explicit = DaemonProcess.start(agent, work, "--model", "faux/faux-1",
                "--session", huge.toString())) {
            assertTrue(explicit.process().waitFor(60, TimeUnit.SECONDS));
            assertEquals(2, explicit.process().exitValue());
            assertTrue(explicit.stderr().contains("too large to load") && explicit.stderr().contains("without --session"),
                    explicit.stderr());
        }
    }

    @Test
    void aLargeLoadLeavesTheReaderFreeAndFilesSharingAnIdAreEachLoadable() throws Exception {
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work")).toRealPath();
        Path stored = Files.createDirectories(sessionsOf(agent, work));
        String filler = "x".repeat(1000);
        SessionFile big = SessionFile.create(stored.resolve("2026-01-01T00-00-00-000Z_big.jsonl"), work.toString(),
                null, () -> 1_700_000_000_000L);
        for (int i = 0; i < 10_000; i++) {
            big.appendMessage(user("question " + i + " " + filler));
            big.appendMessage(reply("answer " + i + " " + filler));
        }
        big.close(); // this JVM's lock: the daemon must be able to take it
        SessionFile original = SessionFile.create(stored.resolve("2026-01-02T00-00-00-000Z_a.jsonl"), work.toString(),
                null, () -> 1_700_000_000_000L);
        original.appendMessage(user("the original copy"));
        original.close();
        Files.writeString(stored.resolve("2026-01-03T00-00-00-000Z_b.jsonl"),
                Files.readString(original.path()).replace("the original copy", "the copied copy"));

        try (DaemonProcess daemon = acp(agent, work)) {
            daemon.send(request(2, "session/new", "{\"cwd\":\"" + work + "\",\"mcpServers\":[]}"));
            String live = answer(daemon, 2).path("result").path("sessionId").asText();
            daemon.send(request(3, "session/list", "{\"cwd\":\"" + work + "\"}"));
            JsonNode listed = answer(daemon, 3).path("result").path("sessions");
            Set<String> ids = new java.util.HashSet<>();
            listed.forEach(entry -> ids.add(entry.path("sessionId").asText()));
            assertEquals(3, ids.size(), "each file under its own id: " + listed);
            String bigId = big.header().id();
            assertTrue(ids.contains(bigId), listed.toString());

            // One write: the reader has the cancel before the load is done (20 MB to parse, 20,000 updates).
            daemon.send(request(4, "session/load", "{\"sessionId\":\"" + bigId + "\",\"cwd\":\"" + work
                    + "\",\"mcpServers\":[]}") + "\n" + request(5, "session/cancel", "{\"sessionId\":\"" + live + "\"}"));
            assertEquals("{}", answer(daemon, 5).path("result").toString());
            answer(daemon, 4);
            assertTrue(indexOfAnswer(daemon, 5) < indexOfAnswer(daemon, 4),
                    "the cancel was answered while the load ran");

            int next = 6;
            Set<String> texts = new java.util.HashSet<>();
            for (String id : ids.stream().filter(id -> !id.equals(bigId)).sorted().collect(Collectors.toList())) {
                int before = daemon.records().size();
                daemon.send(request(next, "session/load", "{\"sessionId\":\"" + id + "\",\"cwd\":\"" + work
                        + "\",\"mcpServers\":[]}"));
                assertTrue(answer(daemon, next).path("result").has("configOptions"), id);
                String replay = daemon.records().subList(before, daemon.records().size()).toString();
                texts.add(replay.contains("the original copy") ? "original" : replay.contains("the copied copy")
                        ? "copied" : "none");
                next++;
            }
            assertEquals(Set.of("original", "copied"), texts, "each id loads its own file");
        }
    }

    /** W7: --continue chooses the pi dialects' session; in acp mode no file is taken until the editor asks. */
    @Test
    void acpModeTakesNoSessionFileBeforeTheEditorAsksForOne() throws Exception {
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work")).toRealPath();
        SessionFile latest = SessionFile.create(Files.createDirectories(sessionsOf(agent, work))
                .resolve("2026-01-01T00-00-00-000Z_a.jsonl"), work.toString(), null, () -> 1_700_000_000_000L);
        latest.appendMessage(user("from before"));
        latest.close(); // this JVM's lock: only the daemon may hold it now
        try (DaemonProcess daemon = DaemonProcess.start(agent, work, "--mode", "acp", "--model", "faux/faux-1",
                "--continue")) {
            daemon.send(request(1, "initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}"));
            answer(daemon, 1);
            SessionLock.acquire(latest.path()).release(); // the daemon is up and has not taken the latest file

            daemon.send(request(2, "session/load", "{\"sessionId\":\"" + latest.header().id() + "\",\"cwd\":\""
                    + work + "\",\"mcpServers\":[]}"));
            assertTrue(answer(daemon, 2).path("result").has("configOptions"), daemon.records().toString());
            assertThrows(SessionLockedException.class, () -> SessionLock.acquire(latest.path()),
                    "the load took the file: the check above could see it taken");
        }
    }
}
