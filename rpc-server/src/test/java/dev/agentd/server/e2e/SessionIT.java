package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §7 through the real process: files, crash recovery with --continue, fork. */
class SessionIT {
    @TempDir
    Path dir;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
    }

    private Path agentDir() throws IOException {
        return Files.createDirectories(dir.resolve("agent"));
    }

    private DaemonProcess start(String script, String... args) throws IOException {
        Path file = dir.resolve("script-" + System.nanoTime() + ".json");
        Files.writeString(file, script);
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--faux-script");
        all.add(file.toString());
        return DaemonProcess.start(agentDir(), dir, all.toArray(String[]::new));
    }

    private static List<String> texts(JsonNode messages) {
        List<String> out = new ArrayList<>();
        messages.forEach(message -> out.add(message.path("role").asText() + ":"
                + message.path("content").path(0).path("text").asText()));
        return out;
    }

    @Test
    void aKilledDaemonIsResumedWithContinue() throws Exception {
        daemon = start("[{\"text\":\"first answer\"},{\"text\":\"" + "slow ".repeat(300) + "\",\"chunkDelayMs\":50}]");
        daemon.send(command("prompt", "p1", "message", "first"));
        daemon.awaitNth("agent_end", 1);
        String file = daemon.request(command("get_state", "s")).path("data").path("sessionFile").asText();
        assertTrue(file.endsWith(".jsonl"), file);
        daemon.send(command("prompt", "p2", "message", "second"));
        daemon.await(node -> "text_delta".equals(node.path("assistantMessageEvent").path("type").asText())
                && node.path("assistantMessageEvent").path("delta").asText().contains("slow"));
        daemon.process().destroyForcibly();
        assertTrue(daemon.process().waitFor(20, TimeUnit.SECONDS));
        // a crash in the middle of writing leaves half a line
        Files.writeString(Path.of(file), "{\"type\":\"message\",\"id\":\"deadbeef\",\"parentId\":\"x\",\"mess",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        daemon = start("[{\"text\":\"resumed answer\"}]", "--continue");
        JsonNode state = daemon.request(command("get_state", "s2")).path("data");
        assertEquals(file, state.path("sessionFile").asText());
        JsonNode messages = daemon.request(command("get_messages", "m")).path("data").path("messages");
        assertEquals(List.of("user:first", "assistant:first answer", "user:second"), texts(messages));
        daemon.send(command("prompt", "p3", "message", "third"));
        daemon.awaitNth("agent_end", 1);
        List<String> lines = Files.readAllLines(Path.of(file));
        assertTrue(lines.stream().noneMatch(line -> line.contains("deadbeef")), "the broken tail was cut off");
        assertTrue(lines.get(lines.size() - 1).contains("resumed answer"));
    }

    @Test
    void forkCreatesANewFileWithTheHistoryBeforeTheChosenMessage() throws Exception {
        daemon = start("[{\"text\":\"a1\"},{\"text\":\"a2\"}]");
        daemon.send(command("prompt", "p1", "message", "q1"));
        daemon.awaitNth("agent_end", 1);
        daemon.send(command("prompt", "p2", "message", "q2"));
        daemon.awaitNth("agent_end", 2);
        String original = daemon.request(command("get_state", "s")).path("data").path("sessionFile").asText();
        JsonNode choices = daemon.request(command("get_fork_messages", "f")).path("data").path("messages");
        assertEquals(2, choices.size());
        JsonNode fork = daemon.request(command("fork", "k", "entryId", choices.get(1).path("entryId").asText()));
        assertTrue(fork.path("success").asBoolean(), fork.toString());
        assertEquals("q2", fork.path("data").path("text").asText());
        String forked = daemon.request(command("get_state", "s2")).path("data").path("sessionFile").asText();
        assertNotEquals(original, forked);
        assertTrue(Files.readString(Path.of(forked)).contains(original), "the fork names its parent");
        JsonNode messages = daemon.request(command("get_messages", "m")).path("data").path("messages");
        assertEquals(List.of("user:q1", "assistant:a1"), texts(messages));
        JsonNode bad = daemon.request(command("fork", "bad", "entryId", "nope"));
        assertEquals("Invalid entry ID for forking: nope", bad.path("error").asText());
    }

    @Test
    void entriesAndTreeAnswerFromTheFileWithACursor() throws Exception {
        daemon = start("[{\"text\":\"a1\"},{\"text\":\"a2\"}]");
        daemon.send(command("prompt", "p1", "message", "q1"));
        daemon.awaitNth("agent_end", 1);
        JsonNode first = daemon.request(command("get_entries", "e1")).path("data");
        String cursor = first.path("leafId").asText();
        String file = daemon.request(command("get_state", "s")).path("data").path("sessionFile").asText();
        List<String> lines = Files.readAllLines(Path.of(file));
        assertEquals(lines.size() - 1, first.path("entries").size(), "every entry but the header");
        assertEquals(Json.mapper().readTree(lines.get(lines.size() - 1)),
                first.path("entries").get(first.path("entries").size() - 1), "as persisted");
        daemon.send(command("prompt", "p2", "message", "q2"));
        daemon.awaitNth("agent_end", 2);
        JsonNode newer = daemon.request(command("get_entries", "e2", "since", cursor)).path("data");
        assertEquals(List.of("user:q2", "assistant:a2"), texts(Json.mapper().valueToTree(newer.path("entries")
                .findValues("message"))));
        JsonNode unknown = daemon.request(command("get_entries", "e3", "since", "nope"));
        assertEquals("Entry not found: nope", unknown.path("error").asText());
        JsonNode tree = daemon.request(command("get_tree", "t")).path("data");
        assertEquals(1, tree.path("tree").size());
        assertEquals(newer.path("leafId").asText(), tree.path("leafId").asText());
    }

    @Test
    void noSessionWritesNothing() throws Exception {
        daemon = start("[{\"text\":\"a\"}]", "--no-session");
        daemon.send(command("prompt", "p", "message", "q"));
        daemon.awaitNth("agent_end", 1);
        assertTrue(daemon.request(command("get_state", "s")).path("data").path("sessionFile").isMissingNode());
        assertTrue(Files.notExists(agentDir().resolve("sessions")));
    }
}
