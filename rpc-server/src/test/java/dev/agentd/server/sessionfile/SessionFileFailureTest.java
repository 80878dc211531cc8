package dev.agentd.server.sessionfile;

import static dev.agentd.server.sessionfile.SessionFileTest.reply;
import static dev.agentd.server.sessionfile.SessionFileTest.user;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A session file survives failed appends (disk full) and unreadable lines without losing history. */
class SessionFileFailureTest {
    @TempDir
    Path dir;
    final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    /** Writes a few bytes of the buffer, then fails like a full disk, while {@code full} is set. */
    static LineAppender.ChannelWriter diskFullWhile(AtomicBoolean full) {
        return (channel, buffer) -> {
            if (!full.get()) {
                return channel.write(buffer);
            }
            ByteBuffer part = buffer.duplicate();
            part.limit(part.position() + Math.min(7, part.remaining()));
            int written = channel.write(part);
            buffer.position(buffer.position() + written);
            throw new IOException("No space left on device");
        };
    }

    private static List<String> texts(List<AgentMessage> context) {
        return context.stream().map(message -> message instanceof AgentMessage.User u ? u.text()
                : ((AgentMessage.Assistant) message).text()).toList();
    }

    private static void assertEveryLineParses(Path file) throws IOException {
        for (String line : Files.readAllLines(file)) {
            Json.mapper().readTree(line);
        }
    }

    @Test
    void aFailedAppendIsCutBackAndRetriedSoAReloadHasTheWholeHistory() throws IOException {
        Path file = dir.resolve("session.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        session.appendMessage(user("t0"));
        session.appendMessage(reply("r0"));
        AtomicBoolean full = new AtomicBoolean(true);
        session.writeThrough(diskFullWhile(full));
        session.appendMessage(user("full1"));
        session.appendMessage(reply("full2"));
        full.set(false);
        session.appendMessage(user("after1"));
        session.appendMessage(reply("after2"));

        assertEveryLineParses(file);
        SessionFile reloaded = SessionFile.load(file, clock::get);
        assertEquals(List.of("t0", "r0", "full1", "full2", "after1", "after2"), texts(reloaded.buildContext()));
        assertEquals(7, Files.readAllLines(file).size(), "header and six entries, none twice");
    }

    @Test
    void aFailedFirstWriteIsRedoneWholeWithTheNextReply() throws IOException {
        Path file = dir.resolve("session.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        AtomicBoolean full = new AtomicBoolean(true);
        session.writeThrough(diskFullWhile(full));
        session.appendMessage(user("q1"));
        session.appendMessage(reply("a1"));
        full.set(false);
        session.appendMessage(user("q2"));
        session.appendMessage(reply("a2"));

        assertEveryLineParses(file);
        assertEquals(List.of("q1", "a1", "q2", "a2"), texts(SessionFile.load(file, clock::get).buildContext()));
    }

    @Test
    void aFailedNewlineRepairKeepsTheCompleteLastLine() throws IOException {
        Path file = dir.resolve("session.jsonl");
        SessionFile first = SessionFile.create(file, "/work", null, clock::get);
        first.appendMessage(user("q1"));
        first.appendMessage(reply("a1"));
        String text = Files.readString(file);
        Files.writeString(file, text.substring(0, text.length() - 1)); // complete, but no final LF
        SessionFile session = SessionFile.load(file, clock::get);
        AtomicBoolean full = new AtomicBoolean(true);
        session.writeThrough(diskFullWhile(full));
        session.appendMessage(user("q2"));
        full.set(false);
        session.appendMessage(reply("a2"));

        assertEveryLineParses(file);
        assertEquals(List.of("q1", "a1", "q2", "a2"), texts(SessionFile.load(file, clock::get).buildContext()));
    }

    @Test
    void anUnreadableLineInTheMiddleDoesNotCutOffTheEarlierHistory() throws IOException {
        Path file = dir.resolve("session.jsonl");
        SessionFile session = SessionFile.create(file, "/work", null, clock::get);
        session.appendMessage(user("t0"));
        session.appendMessage(reply("r0"));
        session.appendMessage(user("lost"));
        session.appendMessage(reply("r1"));
        List<String> lines = Files.readAllLines(file);
        // The "lost" entry is garbled: r1's parent is now missing from the file.
        String garbled = lines.get(3).substring(0, 20) + lines.get(4);
        Files.writeString(file, String.join("\n", lines.get(0), lines.get(1), lines.get(2), garbled,
                lines.get(4)) + "\n", StandardCharsets.UTF_8);

        SessionFile reloaded = SessionFile.load(file, clock::get);
        assertEquals(List.of("t0", "r0", "r1"), texts(reloaded.buildContext()));
        reloaded.appendMessage(user("next"));
        assertEquals(List.of("t0", "r0", "r1", "next"),
                texts(SessionFile.load(file, clock::get).buildContext()));
    }
}
