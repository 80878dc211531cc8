package dev.agentd.server.sessionfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.testing.Replies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionFileTest {
    @TempDir
    Path dir;
    final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    static AgentMessage.User user(String text) {
        return new AgentMessage.User(List.of(new ContentBlock.Text(text)), 1);
    }

    static AgentMessage.Assistant reply(String text) {
        return Replies.reply().text(text).at(2).build();
    }

    static AgentMessage.Assistant failed(String error) {
        return Replies.reply().error(error).at(2).build();
    }

    private List<JsonNode> lines(Path file) throws IOException {
        return Files.readAllLines(file).stream().map(line -> {
            try {
                return Json.mapper().readTree(line);
            } catch (IOException e) {
                throw new AssertionError(line, e);
            }
        }).toList();
    }

    @Test
    void nothingIsWrittenBeforeTheFirstMessageThenOneLinePerEntry() throws IOException {
        Path file = dir.resolve("s/session.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        session.appendModelChange("faux", "faux-1", null, null, null);
        session.appendThinkingLevel("high");
        assertFalse(Files.exists(file), "settings-only changes write nothing");
        session.appendMessage(user("hello"));
        assertEquals(4, lines(file).size(), "the prompt is on disk before its message_end goes out");
        session.appendMessage(reply("hi"));
        List<JsonNode> lines = lines(file);
        assertEquals(5, lines.size());
        assertEquals("session", lines.get(0).path("type").asText());
        assertEquals(3, lines.get(0).path("version").asInt());
        assertEquals("/work", lines.get(0).path("cwd").asText());
        assertTrue(lines.get(1).has("parentId") && lines.get(1).get("parentId").isNull(), "first entry: parentId null");
        assertEquals(lines.get(1).path("id").asText(), lines.get(2).path("parentId").asText());
        assertTrue(lines.get(1).path("id").asText().matches("[0-9a-f]{8}"));
        session.appendMessage(user("more"));
        assertEquals(6, lines(file).size(), "after the first write every entry is appended at once");
    }

    @Test
    void aRetriedFailureStaysInTheFileButLeavesTheRebuiltContext() throws IOException {
        Path file = dir.resolve("session.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        session.appendMessage(user("question"));
        AgentMessage.Assistant failure = failed("529 overloaded");
        session.appendMessage(failure);
        session.appendModelChange("faux", "faux-2", null, null, null);
        session.retract(failure);
        session.appendMessage(reply("answer"));
        List<String> roles = session.buildContext().stream().map(AgentMessage::role).toList();
        assertEquals(List.of("user", "assistant"), roles);
        assertEquals("answer", ((AgentMessage.Assistant) session.buildContext().get(1)).text());

        String fileText = Files.readString(file);
        assertTrue(fileText.contains("529 overloaded"), "the failed reply is kept in the file");
        SessionFile reloaded = SessionFile.load(file, clock::get);
        assertEquals(session.buildContext(), reloaded.buildContext());
    }

    @Test
    void aTruncatedLastLineIsIgnoredAndCutBeforeTheNextAppend() throws IOException {
        Path file = dir.resolve("session.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        session.appendMessage(user("q"));
        session.appendMessage(reply("a"));
        Files.writeString(file, "{\"type\":\"message\",\"id\":\"dead", StandardOpenOption.APPEND);

        SessionFile reloaded = SessionFile.load(file, clock::get);
        assertEquals(2, reloaded.buildContext().size());
        reloaded.appendMessage(user("next"));
        List<JsonNode> lines = lines(file);
        assertEquals(4, lines.size(), "the broken tail was cut off: " + Files.readString(file));
        assertEquals("next", lines.get(3).path("message").path("content").get(0).path("text").asText());
    }

    @Test
    void aCompleteLastLineWithoutLineFeedIsKept() throws IOException {
        Path file = dir.resolve("session.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        session.appendMessage(user("q"));
        session.appendMessage(reply("a"));
        String text = Files.readString(file);
        Files.writeString(file, text.substring(0, text.length() - 1));
        SessionFile reloaded = SessionFile.load(file, clock::get);
        reloaded.appendMessage(user("next"));
        assertEquals(4, lines(file).size());
        assertEquals(3, SessionFile.load(file, clock::get).buildContext().size());
    }

    @Test
    void aFileWithoutHeaderIsRefused() throws IOException {
        Path file = dir.resolve("x.jsonl");
        Files.writeString(file, "{\"type\":\"message\"}\n");
        assertThrows(IOException.class, () -> SessionFile.load(file, clock::get));
    }

    @Test
    void compactionRebuildsSummaryThenKeptThenNewer() {
        SessionFile session = SessionFile.create(null, "/work", null, clock::get);
        session.appendMessage(user("old question"));
        session.appendMessage(reply("old answer"));
        String kept = session.appendMessage(user("recent question")).id();
        session.appendMessage(reply("recent answer"));
        session.appendCompaction("summary of old things", kept, 12345, null);
        session.appendMessage(user("after"));
        List<AgentMessage> context = session.buildContext();
        assertEquals(List.of("compactionSummary", "user", "assistant", "user"),
                context.stream().map(AgentMessage::role).toList());
        assertEquals("summary of old things", ((AgentMessage.CompactionSummary) context.get(0)).summary());
        assertEquals(12345, ((AgentMessage.CompactionSummary) context.get(0)).tokensBefore());
    }

    /** A1/Z5: an editor's reload shows what was said before a compaction too, the summary where it was made. */
    @Test
    void theTranscriptKeepsCompactedMessagesWithTheSummaryAtItsPlace() {
        SessionFile session = SessionFile.create(null, "/work", null, clock::get);
        session.appendMessage(user("old question"));
        session.appendMessage(reply("old answer"));
        String kept = session.appendMessage(user("recent question")).id();
        session.appendMessage(reply("recent answer"));
        session.appendCompaction("summary of old things", kept, 12345, null);
        session.appendMessage(user("after"));
        List<AgentMessage> transcript = session.transcript();
        assertEquals(List.of("user", "assistant", "user", "assistant", "compactionSummary", "user"),
                transcript.stream().map(AgentMessage::role).toList());
        assertEquals("old question", ((AgentMessage.User) transcript.get(0)).text());
        assertEquals("summary of old things", ((AgentMessage.CompactionSummary) transcript.get(4)).summary());
        assertEquals(4, session.buildContext().size()); // the model's context is unchanged
    }

    @Test
    void forkCopiesTheBranchBeforeTheChosenUserMessage() throws IOException {
        Path original = dir.resolve("a.jsonl");
        SessionFile session = SessionFile.create(original, "/work", null, clock::get);
        session.appendMessage(user("first"));
        session.appendMessage(reply("one"));
        String second = session.appendMessage(user("second")).id();
        session.appendMessage(reply("two"));
        Path forkPath = dir.resolve("b.jsonl");
        SessionFile fork = session.forkBefore(second, forkPath);
        fork.flushIfPending();
        SessionFile reloaded = SessionFile.load(forkPath, clock::get);
        assertEquals(List.of("first", "one"), reloaded.buildContext().stream()
                .map(m -> m instanceof AgentMessage.User u ? u.text() : ((AgentMessage.Assistant) m).text()).toList());
        assertEquals(original.toString(), reloaded.header().parentSession());
        assertThrows(IllegalArgumentException.class, () -> session.forkBefore("nothere", dir.resolve("c.jsonl")));
    }

    @Test
    void unknownEntriesSurviveALoad() throws IOException {
        Path file = dir.resolve("session.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        session.appendMessage(user("q"));
        session.appendMessage(reply("a"));
        Files.writeString(file, "{\"type\":\"label\",\"id\":\"abcd1234\",\"parentId\":null,\"targetId\":\"x\"}\n",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        SessionFile reloaded = SessionFile.load(file, clock::get);
        assertEquals("label", reloaded.entries().get(2).type());
    }

    @Test
    void pathsFollowTheCwdNamingAndLatestPicksTheNewest() throws IOException {
        SessionPaths paths = new SessionPaths(dir.resolve("sessions"));
        Path cwd = Path.of("/home/me/project");
        assertEquals(dir.resolve("sessions/--home-me-project--"), paths.directoryFor(cwd));
        Path older = paths.newFile(cwd, 1_000);
        Path newer = paths.newFile(cwd, 2_000);
        assertTrue(older.getFileName().toString().startsWith("1970-01-01T00-00-01Z_"));
        Files.createDirectories(older.getParent());
        Files.writeString(older, "x");
        Files.writeString(newer, "y");
        Files.setLastModifiedTime(older, java.nio.file.attribute.FileTime.fromMillis(10_000));
        Files.setLastModifiedTime(newer, java.nio.file.attribute.FileTime.fromMillis(20_000));
        assertEquals(newer, paths.latest(cwd).orElseThrow());
    }
}
