package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.sessionfile.SessionEntry;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §7 through the session: what reaches the file, and what a reload rebuilds. */
class SessionPersistenceTest {
    private static final String OVERLOADED = "529 overloaded_error";

    @TempDir
    Path dir;

    private static List<String> texts(List<AgentMessage> messages) {
        return messages.stream().map(message -> message instanceof AgentMessage.User user ? "user:" + user.text()
                : message instanceof AgentMessage.Assistant reply ? "assistant:" + (reply.stopReason()
                == StopReason.ERROR ? "ERROR " + reply.errorMessage() : reply.text()) : message.role()).toList();
    }

    @Test
    void aRetriedErrorIsKeptInTheFileAndAReloadRebuildsTheSameContext() throws Exception {
        Path file;
        List<AgentMessage> live;
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(FauxStep.text("first answer"), FauxStep.error(OVERLOADED, 529),
                    FauxStep.text("second answer"));
            await().until(harness.session.prompt("one")::isDone);
            CompletableFuture<Void> second = harness.session.prompt("two");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
            harness.scheduler.advance(2000);
            await().until(second::isDone);
            live = harness.session.messages();
            file = Path.of(harness.session.sessionFile());
            assertEquals(file.toString(), harness.session.state().sessionFile());
        }
        assertEquals(List.of("user:one", "assistant:first answer", "user:two", "assistant:second answer"), texts(live));
        String text = Files.readString(file);
        int failedAt = text.indexOf(OVERLOADED);
        assertTrue(failedAt > 0, "the failed reply is in the file");
        assertTrue(text.indexOf("second answer") > failedAt, "the retried reply follows it");

        SessionFile reloaded = SessionFile.load(file, System::currentTimeMillis);
        assertEquals(live, reloaded.buildContext());
    }

    @Test
    void aResumedSessionContinuesWithItsContextAndModel() throws Exception {
        Path file;
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(FauxStep.text("remembered"));
            await().until(harness.session.prompt("remember this")::isDone);
            harness.session.models().set("faux", "faux-2");
            file = Path.of(harness.session.sessionFile());
        }
        SessionFile loaded = SessionFile.load(file, System::currentTimeMillis);
        try (SessionHarness resumed = SessionHarness.builder(dir).sessionFile(loaded).build()) {
            assertEquals(List.of("user:remember this", "assistant:remembered"), texts(resumed.session.messages()));
            assertEquals("faux-2", resumed.session.models().current().id(), "the session's last model is restored");
            resumed.enqueue(FauxStep.text("still here"));
            await().until(resumed.session.prompt("again")::isDone);
            assertEquals(4, SessionFile.load(file, System::currentTimeMillis).buildContext().size());
        }
    }

    @Test
    void nameModelAndThinkingChangesAreEntries() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(FauxStep.text("ok"));
            await().until(harness.session.prompt("hi")::isDone);
            harness.session.setSessionName("my session");
            harness.session.models().setThinkingLevel(dev.agentd.protocol.model.ThinkingLevel.HIGH);
            SessionFile file = SessionFile.load(Path.of(harness.session.sessionFile()), System::currentTimeMillis);
            assertEquals("my session", file.name().orElseThrow());
            assertEquals("high", file.latest(SessionEntry.ThinkingLevelChange.class).orElseThrow().thinkingLevel());
            assertEquals("faux-1", file.latest(SessionEntry.ModelChange.class).orElseThrow().modelId());
            assertEquals("my session", harness.session.state().sessionName());
        }
    }

    @Test
    void forkStartsANewFileWithTheHistoryBeforeTheChosenMessage() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(FauxStep.text("a1"), FauxStep.text("a2"));
            await().until(harness.session.prompt("q1")::isDone);
            await().until(harness.session.prompt("q2")::isDone);
            String original = harness.session.sessionFile();
            List<Results.ForkMessage> choices = harness.session.forkMessages();
            assertEquals(List.of("q1", "q2"), choices.stream().map(Results.ForkMessage::text).toList());

            String text = harness.session.fork(choices.get(1).entryId()).get();
            assertEquals("q2", text);
            assertNotEquals(original, harness.session.sessionFile());
            assertEquals(List.of("user:q1", "assistant:a1"), texts(harness.session.messages()));
            SessionFile fork = SessionFile.load(Path.of(harness.session.sessionFile()), System::currentTimeMillis);
            assertEquals(original, fork.header().parentSession());
            assertEquals(List.of("user:q1", "assistant:a1"), texts(fork.buildContext()));
        }
    }

    @Test
    void newSessionAndSwitchSession() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(FauxStep.text("a1"), FauxStep.text("b1"));
            await().until(harness.session.prompt("first session")::isDone);
            String first = harness.session.sessionFile();
            String firstId = harness.session.sessionId();
            harness.session.newSession(null).get();
            assertEquals(List.of(), harness.session.messages());
            assertNotEquals(firstId, harness.session.sessionId());
            await().until(harness.session.prompt("second session")::isDone);

            harness.session.switchSession(Path.of(first)).get();
            assertEquals(List.of("user:first session", "assistant:a1"), texts(harness.session.messages()));
            assertEquals(firstId, harness.session.sessionId());
        }
    }

    @Test
    void noSessionKeepsEverythingInMemory() throws Exception {
        try (SessionHarness harness = SessionHarness.create(dir)) {
            harness.enqueue(FauxStep.text("a"));
            await().until(harness.session.prompt("q")::isDone);
            assertNull(harness.session.state().sessionFile());
            assertTrue(Files.notExists(dir.resolve("sessions")));
            assertEquals(1, harness.events(AgentEvent.AgentEnd.class).size());
        }
    }
}
