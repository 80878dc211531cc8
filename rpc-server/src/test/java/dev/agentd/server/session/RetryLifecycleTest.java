package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.response.SessionState;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §5.3 on fake time: numbering, delays, resets, cancellation, persistence, prompt completion. */
class RetryLifecycleTest {
    private static final String OVERLOADED =
            "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";

    @TempDir
    Path dir;
    SessionHarness harness;

    @BeforeEach
    void setUp() {
        harness = SessionHarness.create(dir);
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    private static FauxStep overloaded() {
        return FauxStep.error(OVERLOADED, 529);
    }

    /** Waits until the session sleeps on exactly one retry timer of {@code delayMs}. */
    private void awaitRetrySleep(long delayMs) {
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(delayMs)));
    }

    @Test
    void twoOverloadsThenSuccessRetriesTwiceAndEndsInSuccess() {
        harness.enqueue(overloaded(), overloaded(), FauxStep.text("finally"));
        CompletableFuture<Void> done = harness.session.prompt("hi");

        awaitRetrySleep(2000);
        assertFalse(done.isDone(), "prompt must not complete while a retry chain is open");
        harness.scheduler.advance(2000);
        awaitRetrySleep(4000);
        harness.scheduler.advance(4000);
        await().until(done::isDone);

        List<AgentEvent.AutoRetryStart> starts = harness.events(AgentEvent.AutoRetryStart.class);
        assertEquals(2, starts.size());
        assertEquals(new AgentEvent.AutoRetryStart(1, 3, 2000, OVERLOADED), starts.get(0));
        assertEquals(new AgentEvent.AutoRetryStart(2, 3, 4000, OVERLOADED), starts.get(1));
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(true, 2, null)),
                harness.events(AgentEvent.AutoRetryEnd.class));
        assertEquals(3, harness.faux.requestCount(), "one provider request per attempt");
        List<Boolean> willRetry = harness.events(AgentEvent.AgentEnd.class).stream()
                .map(AgentEvent.AgentEnd::willRetry).toList();
        assertEquals(List.of(true, true, false), willRetry);
    }

    @Test
    void theFailedReplyHasLeftTheContextWhenAutoRetryStartIsSeenAndTheSleepFollowsAtOnce() {
        harness.enqueue(overloaded(), FauxStep.text("ok"));
        List<Integer> messagesAtAnnouncement = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<List<Long>> timersAtAnnouncement = new java.util.concurrent.CopyOnWriteArrayList<>();
        harness.session.subscribe(event -> {
            if (event instanceof AgentEvent.AutoRetryStart) {
                messagesAtAnnouncement.add(harness.session.messages().size());
                timersAtAnnouncement.add(harness.scheduler.pendingDelays());
            }
        });
        CompletableFuture<Void> done = harness.session.prompt("hi");
        awaitRetrySleep(2000);
        // Only the user message is left; the announcement is the last step before the sleep.
        assertEquals(List.of(1), messagesAtAnnouncement);
        assertEquals(List.of(List.of()), timersAtAnnouncement);
        harness.scheduler.advance(2000);
        await().until(done::isDone);
    }

    @Test
    void successEndIsEmittedRightAfterTheFirstSuccessfulMessageEnd() {
        harness.enqueue(overloaded(), FauxStep.text("ok"));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        awaitRetrySleep(2000);
        harness.scheduler.advance(2000);
        await().until(done::isDone);

        List<String> types = harness.types();
        int end = types.indexOf("auto_retry_end");
        assertEquals("message_end", types.get(end - 1));
        assertEquals(List.of("turn_end", "agent_end"), types.subList(end + 1, end + 3));
        // the retried run is a continuation: no user message events of its own
        int secondStart = types.lastIndexOf("agent_start");
        assertEquals(List.of("agent_start", "turn_start", "message_start"), types.subList(secondStart, secondStart + 3));
    }

    @Test
    void fourFailuresWithThreeRetriesGiveUpReportingThreeAttempts() {
        harness.enqueue(overloaded(), overloaded(), overloaded(), overloaded());
        CompletableFuture<Void> done = harness.session.prompt("hi");
        for (long delay : new long[] {2000, 4000, 8000}) {
            awaitRetrySleep(delay);
            harness.scheduler.advance(delay);
        }
        await().until(done::isDone);

        assertEquals(List.of(1, 2, 3), harness.events(AgentEvent.AutoRetryStart.class).stream()
                .map(AgentEvent.AutoRetryStart::attempt).toList());
        assertEquals(List.of(2000L, 4000L, 8000L), harness.events(AgentEvent.AutoRetryStart.class).stream()
                .map(AgentEvent.AutoRetryStart::delayMs).toList());
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 3, OVERLOADED)),
                harness.events(AgentEvent.AutoRetryEnd.class));
        assertEquals(4, harness.faux.requestCount());
        List<String> types = harness.types();
        assertEquals("agent_end", types.get(types.size() - 3));
        assertEquals("auto_retry_end", types.get(types.size() - 2));
        assertEquals("agent_settled", types.get(types.size() - 1), "pi 1.6: the run settles last");
        assertFalse(harness.session.state().isRetrying());
    }

    @Test
    void abortRetryDuringTheSleepCancelsTheChainWithoutAnotherRequest() {
        harness.enqueue(overloaded(), FauxStep.text("never"));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        awaitRetrySleep(2000);

        SessionState during = harness.session.state();
        assertTrue(during.isRetrying());
        assertEquals(1, during.retryAttempt());
        assertFalse(during.isStreaming(), "pi reports isStreaming false during the backoff");

        harness.session.abortRetry();
        assertTrue(done.isDone(), "the prompt's logical run ends with the chain");
        harness.scheduler.advance(10_000);
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 1, "Retry cancelled")),
                harness.events(AgentEvent.AutoRetryEnd.class));
        assertEquals(1, harness.faux.requestCount());
        assertEquals(List.of(), harness.scheduler.pendingDelays());
        SessionState after = harness.session.state();
        assertFalse(after.isRetrying());
        assertEquals(0, after.retryAttempt());
    }

    @Test
    void abortDuringTheSleepCancelsTheRetryFirst() throws Exception {
        harness.enqueue(overloaded(), FauxStep.text("never"));
        harness.session.prompt("hi");
        awaitRetrySleep(2000);

        harness.session.abort().get();
        harness.scheduler.advance(10_000);
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 1, "Retry cancelled")),
                harness.events(AgentEvent.AutoRetryEnd.class));
        assertEquals(1, harness.faux.requestCount());
    }

    @Test
    void failedMessageLeavesTheWorkingContextWhenTheRetryStarts() {
        harness.enqueue(overloaded(), FauxStep.text("ok"));
        harness.session.prompt("hi");
        awaitRetrySleep(2000);
        List<AgentMessage> messages = harness.session.messages();
        assertEquals(1, messages.size());
        assertTrue(messages.get(0) instanceof AgentMessage.User);
        harness.scheduler.advance(2000);
        await().until(() -> harness.session.messages().size() == 2);
        assertEquals("ok", ((AgentMessage.Assistant) harness.session.messages().get(1)).text());
    }

    @Test
    void disablingAutoRetryStopsRetriesAndIsPersistedGlobally() throws Exception {
        harness.session.settings().setAutoRetry(false);
        harness.enqueue(overloaded());
        CompletableFuture<Void> done = harness.session.prompt("hi");
        await().until(done::isDone);

        assertEquals(List.of(), harness.events(AgentEvent.AutoRetryStart.class));
        assertEquals(List.of(false), harness.events(AgentEvent.AgentEnd.class).stream()
                .map(AgentEvent.AgentEnd::willRetry).toList());
        JsonNode global = Json.mapper().readTree(Files.readString(dir.resolve("settings.json")));
        assertFalse(global.path("retry").path("enabled").asBoolean(true));
        assertFalse(harness.session.state().autoRetryEnabled());
    }

    @Test
    void aNewChainAfterASuccessStartsAtAttemptOne() {
        harness.enqueue(overloaded(), FauxStep.text("ok"), overloaded(), FauxStep.text("ok again"));
        CompletableFuture<Void> first = harness.session.prompt("one");
        awaitRetrySleep(2000);
        harness.scheduler.advance(2000);
        await().until(first::isDone);

        CompletableFuture<Void> second = harness.session.prompt("two");
        awaitRetrySleep(2000);
        harness.scheduler.advance(2000);
        await().until(second::isDone);

        assertEquals(List.of(1, 1), harness.events(AgentEvent.AutoRetryStart.class).stream()
                .map(AgentEvent.AutoRetryStart::attempt).toList());
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(true, 1, null), new AgentEvent.AutoRetryEnd(true, 1, null)),
                harness.events(AgentEvent.AutoRetryEnd.class));
    }

    @Test
    void aRetriedRunEndingInANonRetryableErrorEndsTheChainInFailure() {
        String badRequest = "400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\"}}";
        harness.enqueue(overloaded(), FauxStep.error(badRequest, 400));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        awaitRetrySleep(2000);
        harness.scheduler.advance(2000);
        await().until(done::isDone);

        assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 1, badRequest)),
                harness.events(AgentEvent.AutoRetryEnd.class));
        assertFalse(harness.session.state().isRetrying());
        assertEquals(0, harness.session.state().retryAttempt());
    }

    @Test
    void abortRetryWhileTheRetriedAttemptStreamsEndsTheChainAndItsFailureIsFinal() {
        harness.enqueue(overloaded(), overloaded().withDelayMs(500));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        awaitRetrySleep(2000);
        harness.scheduler.advance(2000);
        // the retried attempt now waits 500 ms (fake) before failing
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(500L)));
        harness.session.abortRetry();
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 1, "Retry cancelled")),
                harness.events(AgentEvent.AutoRetryEnd.class));
        harness.scheduler.advance(500);
        await().until(done::isDone);
        assertEquals(1, harness.events(AgentEvent.AutoRetryStart.class).size(), "no new retry after cancel");
        assertEquals(2, harness.faux.requestCount());
    }

    @Test
    void aPromptDuringTheBackoffNeedsAStreamingBehavior() {
        harness.enqueue(overloaded(), FauxStep.text("ok"), FauxStep.text("follow-up answer"));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        awaitRetrySleep(2000);
        PromptRejectedException refused = org.junit.jupiter.api.Assertions.assertThrows(
                PromptRejectedException.class, () -> harness.session.prompt("impatient"));
        assertTrue(refused.getMessage().contains("streamingBehavior"));
        harness.session.followUp("and then?", null);
        harness.scheduler.advance(2000);
        await().until(done::isDone);
        List<AgentMessage> messages = harness.session.messages();
        assertEquals("follow-up answer", ((AgentMessage.Assistant) messages.get(messages.size() - 1)).text());
    }
}
