package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §5.7 on fake time: {@code retry} re-runs a failed turn once, then the normal policy applies. */
class ManualRetryTest {
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

    /** A prompt whose four requests all fail: three retries, then the chain ends in failure. */
    private void failedChain() {
        harness.enqueue(overloaded(), overloaded(), overloaded(), overloaded());
        harness.promptToEnd("hi");
        assertEquals(List.of(new AgentEvent.AutoRetryEnd(false, 3, OVERLOADED)),
                harness.events(AgentEvent.AutoRetryEnd.class));
    }

    /** Launches a retry; returns its done future and counts its one success answer. */
    private CompletableFuture<Void> retry(AtomicInteger accepted) {
        PromptTicket ticket = harness.session.retry();
        ticket.launch(accepted::incrementAndGet);
        return ticket.done();
    }

    @Test
    void retryAfterAFailedChainRerunsTheTurnOnceWithoutTheFailedReply() {
        failedChain();
        int eventsBefore = harness.events().size();
        harness.enqueue(FauxStep.text("recovered"));
        AtomicInteger accepted = new AtomicInteger();
        CompletableFuture<Void> done = retry(accepted);
        await().until(done::isDone);

        assertFalse(done.isCompletedExceptionally());
        assertEquals(1, accepted.get(), "one success answer");
        assertEquals(5, harness.faux.requestCount(), "one more request");
        List<AgentMessage> context = harness.session.messages();
        assertEquals(2, context.size(), "the user message and the new reply: the failed one left");
        assertInstanceOf(AgentMessage.User.class, context.get(0));
        assertEquals("recovered", ((AgentMessage.Assistant) context.get(1)).text());
        // A fresh run with no prompt: no user message of its own, no retry chain, settles once.
        List<String> types = harness.types().subList(eventsBefore, harness.types().size());
        assertEquals(List.of("agent_start", "turn_start", "message_start"), types.subList(0, 3));
        assertFalse(types.contains("auto_retry_start"));
        assertEquals(List.of("agent_end", "agent_settled"), types.subList(types.size() - 2, types.size()));
        assertEquals(1, types.stream().filter("message_end"::equals).count(), "only the assistant's message");
    }

    @Test
    void aRetryThatFailsAgainFollowsTheNormalPolicyFromAttemptOne() {
        failedChain();
        harness.enqueue(overloaded(), FauxStep.text("second time lucky"));
        CompletableFuture<Void> done = retry(new AtomicInteger());
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
        assertFalse(done.isDone());
        harness.scheduler.advance(2000);
        await().until(done::isDone);

        List<AgentEvent.AutoRetryStart> starts = harness.events(AgentEvent.AutoRetryStart.class);
        assertEquals(new AgentEvent.AutoRetryStart(1, 3, 2000, OVERLOADED), starts.get(starts.size() - 1));
        assertEquals(new AgentEvent.AutoRetryEnd(true, 1, null),
                harness.events(AgentEvent.AutoRetryEnd.class).get(1));
        assertEquals(6, harness.faux.requestCount());
    }

    @Test
    void retryAfterASuccessfulTurnIsRefusedWithoutARequestOrEvents() {
        harness.enqueue(FauxStep.text("fine"));
        harness.promptToEnd("hi");
        int eventsBefore = harness.events().size();
        AtomicInteger accepted = new AtomicInteger();
        CompletableFuture<Void> done = retry(accepted);
        await().until(done::isDone);

        ExecutionException failure = assertThrows(ExecutionException.class, done::get);
        assertInstanceOf(PromptFailedException.class, failure.getCause());
        assertEquals(AgentSession.NOTHING_TO_RETRY, failure.getCause().getMessage());
        assertEquals(0, accepted.get());
        assertEquals(1, harness.faux.requestCount());
        assertEquals(eventsBefore, harness.events().size(), "a refused retry starts no run");
        assertEquals(2, harness.session.messages().size());
        harness.enqueue(FauxStep.text("again"));
        harness.promptToEnd("next"); // and the session is idle
    }

    @Test
    void retryOnAFreshSessionIsRefused() {
        CompletableFuture<Void> done = retry(new AtomicInteger());
        await().until(done::isDone);
        assertTrue(done.isCompletedExceptionally());
        assertEquals(0, harness.faux.requestCount());
    }

    @Test
    void retryWhileARetrySleepIsPendingIsRefusedOnTheSpot() {
        harness.enqueue(overloaded(), FauxStep.text("later"));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));

        PromptRejectedException refused = assertThrows(PromptRejectedException.class, harness.session::retry);
        assertEquals(AgentSession.RETRY_BUSY, refused.getMessage());
        harness.scheduler.advance(2000);
        await().until(done::isDone);
        assertEquals(2, harness.faux.requestCount(), "the refused retry sent nothing");
    }

    @Test
    void aChainCancelledDuringItsSleepCanBeRetried() {
        harness.enqueue(overloaded(), FauxStep.text("on demand"));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        await().until(() -> harness.scheduler.pendingDelays().equals(List.of(2000L)));
        harness.session.abortRetry();
        await().until(done::isDone);
        assertEquals(1, harness.session.messages().size(), "the failed reply left before the sleep");

        CompletableFuture<Void> retried = retry(new AtomicInteger());
        await().until(retried::isDone);
        assertFalse(retried.isCompletedExceptionally());
        assertEquals("on demand", harness.session.lastAssistantText().orElseThrow());
        assertEquals(2, harness.faux.requestCount());
    }

    @Test
    void anAbortedTurnIsNotRetried() throws Exception {
        harness.enqueue(FauxStep.text("slow").withDelayMs(60_000));
        CompletableFuture<Void> done = harness.session.prompt("hi");
        await().until(() -> !harness.scheduler.pendingDelays().isEmpty());
        harness.session.abort().get();
        await().until(done::isDone);

        CompletableFuture<Void> retried = retry(new AtomicInteger());
        await().until(retried::isDone);
        assertTrue(retried.isCompletedExceptionally());
    }

    @Test
    void aFailedTurnStaysRetryableBehindMessagesThatAreNeitherUserNorReply() {
        AgentMessage.User user = new AgentMessage.User(List.of(), 1);
        AgentMessage failed = reply(StopReason.ERROR);
        AgentMessage bash = new AgentMessage.BashExecution("ls", "", 0, false, false, null, false, 2);
        assertTrue(FailedTurn.retryable(List.of(user, failed, bash)));
        assertTrue(FailedTurn.retryable(List.of(user, failed, user)), "a prompt left without a reply");
        assertTrue(FailedTurn.retryable(List.of(user)), "a chain cancelled in its sleep dropped the reply");
        assertFalse(FailedTurn.retryable(List.of(user, reply(StopReason.ABORTED))));
        assertFalse(FailedTurn.retryable(List.of(user, reply(StopReason.STOP))));
        assertFalse(FailedTurn.retryable(List.of()));
    }

    private static AgentMessage reply(StopReason reason) {
        return new AgentMessage.Assistant(List.of(), "faux", "faux", "faux-1", null, reason, null, 1);
    }
}
