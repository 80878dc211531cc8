package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.response.RetryState;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resume at reset (FALLBACK §11) on fake time: a usage limit naming its reset 3 s ahead, with no
 * other credential and no fallback, waits for it and continues the same turn; the schedule is in
 * the file before it is announced; a cancel ends it as a retry wait; a restart re-arms it.
 */
class ResumeAtResetSessionTest {
    private static final String USAGE = "429 usage_limit_reached: usage limit reached for your plan";
    private static final long RESET_MS = 3_000;

    @TempDir
    Path dir;

    /** A 3 s reset is over {@code maxRetryDelayMs}: the chain would end at once; it resumes instead. */
    @BeforeEach
    void settings() throws Exception {
        Files.writeString(dir.resolve("settings.json"), "{\"retry\":{\"maxRetryDelayMs\":1000}}");
    }

    private static FauxStep usageLimit() {
        return FauxStep.error(USAGE, 429).withRetryAfterMs(RESET_MS);
    }

    private static String lastText(List<AgentMessage> messages) {
        AgentMessage last = messages.get(messages.size() - 1);
        return last instanceof AgentMessage.Assistant reply && reply.content().get(0) instanceof ContentBlock.Text t
                ? t.text() : null;
    }

    @Test
    void aUsageLimitWithAKnownResetWaitsForItAndContinuesTheTurn() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(usageLimit(), FauxStep.text("after the reset"));
            List<Boolean> inFileWhenAnnounced = new CopyOnWriteArrayList<>();
            harness.session.subscribe(event -> {
                if (event instanceof AgentEvent.RetryResumeScheduled) {
                    inFileWhenAnnounced.add(readFile(harness).contains(ResumeEntry.SCHEDULED));
                }
            });
            long start = harness.scheduler.now();
            CompletableFuture<Void> done = harness.session.prompt("hi");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(RESET_MS)));

            assertEquals(List.of(new AgentEvent.RetryResumeScheduled("faux/faux-1", start + RESET_MS, RESET_MS,
                    "usage_limit")), harness.events(AgentEvent.RetryResumeScheduled.class));
            assertEquals(List.of(true), inFileWhenAnnounced, "written before it is announced");
            assertEquals(List.of(new AgentEvent.AutoRetryStart(1, 3, RESET_MS, USAGE)),
                    harness.events(AgentEvent.AutoRetryStart.class));
            List<String> types = harness.types();
            assertEquals(types.indexOf("retry_resume_scheduled") + 1, types.indexOf("auto_retry_start"));
            assertFalse(done.isDone());
            harness.scheduler.advance(1_000);
            assertEquals(new RetryState(new RetryState.Resume("faux/faux-1", start + RESET_MS, RESET_MS - 1_000,
                    "usage_limit")), harness.session.state().retry(), "get_state.retry counts down");

            harness.scheduler.advance(RESET_MS - 1_001);
            assertEquals(1, harness.faux.requestCount(), "nothing before the reset");
            harness.scheduler.advance(1);
            await().until(done::isDone);
            assertEquals(2, harness.faux.requestCount(), "one request at the reset");
            assertEquals(null, harness.session.state().retry());
            assertEquals("after the reset", lastText(harness.session.messages()));
            assertEquals(List.of(new AgentEvent.AutoRetryEnd(true, 1, null)),
                    harness.events(AgentEvent.AutoRetryEnd.class));
            assertTrue(ResumeEntry.pending(loadCopy(harness)).isEmpty(), "a reply follows the resume in the file");
        }
    }

    @Test
    void abortRetryCancelsTheWaitAndTheFileSaysSo() throws Exception {
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(usageLimit());
            CompletableFuture<Void> done = harness.session.prompt("hi");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(RESET_MS)));
            harness.session.abortRetry();
            await().until(done::isDone);
            assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 1, "Retry cancelled")),
                    harness.events(AgentEvent.AutoRetryEnd.class));
            assertEquals(List.of(), harness.scheduler.pendingDelays());
            assertEquals(1, harness.faux.requestCount());
            assertTrue(readFile(harness).contains(ResumeEntry.CANCELLED));
            assertTrue(ResumeEntry.pending(loadCopy(harness)).isEmpty(), "a cancelled resume is not re-armed");
        }
    }

    @Test
    void settingZeroFailsAsBefore() throws Exception {
        Files.writeString(dir.resolve("settings.json"), "{\"retry\":{\"resumeAtResetMaxMs\":0,\"maxRetries\":0}}");
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(usageLimit());
            harness.session.prompt("hi");
            await().until(() -> harness.events(AgentEvent.AgentSettled.class).size() == 1);
            assertEquals(List.of(), harness.events(AgentEvent.RetryResumeScheduled.class));
        }
    }

    @Test
    void aRestartReArmsTheWaitAndResumesAtOnceWhenTheResetHasPassed() throws Exception {
        Path copy = dir.resolve("copy.jsonl");
        long resumeAt;
        try (SessionHarness harness = SessionHarness.builder(dir).persistent().build()) {
            harness.enqueue(usageLimit());
            harness.session.prompt("hi");
            await().until(() -> harness.scheduler.pendingDelays().equals(List.of(RESET_MS)));
            resumeAt = harness.events(AgentEvent.RetryResumeScheduled.class).get(0).resumeAt();
            // The daemon is killed here: the file as it is now is what a restart finds.
            Files.copy(Path.of(harness.session.sessionFile()), copy);
            Files.copy(copy, dir.resolve("late.jsonl"));
            harness.session.shuttingDown();
        }
        // Restarted 1 s later on its fake clock: 2 s are left.
        try (SessionHarness restarted = SessionHarness.builder(dir.resolve("second"))
                .sessionFile(SessionFile.load(copy, () -> resumeAt - 2_000)).build()) {
            restarted.scheduler.advance(resumeAt - 2_000 - restarted.scheduler.now());
            restarted.enqueue(FauxStep.text("resumed"));
            assertEquals(List.of("user"), restarted.session.messages().stream().map(AgentMessage::role).toList());
            assertTrue(restarted.session.rearmResume());
            assertEquals(List.of(2_000L), restarted.scheduler.pendingDelays());
            assertEquals(List.of(new AgentEvent.RetryResumeScheduled("faux/faux-1", resumeAt, 2_000, "usage_limit")),
                    restarted.events(AgentEvent.RetryResumeScheduled.class));
            restarted.scheduler.advance(2_000);
            await().until(() -> "resumed".equals(lastText(restarted.session.messages())));
            assertEquals(1, restarted.faux.requestCount());
        }
        // Past the reset: at once.
        Path late = dir.resolve("late.jsonl");
        try (SessionHarness restarted = SessionHarness.builder(dir.resolve("third"))
                .sessionFile(SessionFile.load(late, () -> resumeAt + 60_000)).build()) {
            restarted.scheduler.advance(resumeAt + 60_000 - restarted.scheduler.now());
            restarted.enqueue(FauxStep.text("resumed late"));
            assertTrue(restarted.session.rearmResume());
            assertEquals(List.of(0L), restarted.scheduler.pendingDelays(), "the reset has passed: no wait");
            restarted.scheduler.advance(0);
            await().until(() -> "resumed late".equals(lastText(restarted.session.messages())));
            assertFalse(restarted.session.rearmResume(), "a file whose resume was answered has none to re-arm");
        }
    }

    private static String readFile(SessionHarness harness) {
        try {
            return Files.readString(Path.of(harness.session.sessionFile()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private SessionFile loadCopy(SessionHarness harness) throws Exception {
        Path copy = Files.createTempFile(dir, "copy", ".jsonl");
        Files.copy(Path.of(harness.session.sessionFile()), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return SessionFile.readForCopy(copy, System::currentTimeMillis);
    }
}
