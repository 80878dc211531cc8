package dev.agentd.server.session;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.recovery.RecoveryAction;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §8 and the retry/compaction boundary of §5.1, on the faux provider. */
class CompactionTest {
    private static final String OVERFLOW = "400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
            + "\"message\":\"prompt is too long: 213462 tokens > 200000 maximum\"}}";

    private static final String OVERLOADED = "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
            + "\"message\":\"Overloaded\"}}";

    @TempDir
    Path dir;
    SessionHarness harness;

    @BeforeEach
    void setUp() throws Exception {
        harness = SessionHarness.builder(dir).persistent().build();
        harness.settings.set("compaction.keepRecentTokens", IntNode.valueOf(1));
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    private static FauxStep overflow() {
        return FauxStep.error(OVERFLOW, 400);
    }

    private List<String> roles() {
        return harness.session.messages().stream().map(AgentMessage::role).toList();
    }

    @Test
    void anOverflowIsCompactedAndTheRunContinues() {
        harness.enqueue(FauxStep.text("a1"), overflow(), FauxStep.text("SUMMARY of q1/a1"), FauxStep.text("a2"));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(harness.session.prompt("q2")::isDone);

        List<String> types = harness.types();
        int compactionStart = types.indexOf("compaction_start");
        assertEquals(List.of("message_end", "turn_end", "agent_end", "compaction_start", "compaction_end",
                "agent_start", "turn_start", "message_start"), types.subList(compactionStart - 3, compactionStart + 5));
        assertEquals("overflow", harness.events(AgentEvent.CompactionStart.class).get(0).reason());
        AgentEvent.CompactionEnd end = harness.events(AgentEvent.CompactionEnd.class).get(0);
        assertTrue(end.willRetry());
        assertEquals("SUMMARY of q1/a1", end.result().summary());
        List<AgentEvent.AgentEnd> agentEnds = harness.events(AgentEvent.AgentEnd.class);
        assertEquals(List.of(false, true, false), agentEnds.stream().map(AgentEvent.AgentEnd::willRetry).toList());
        assertEquals(List.of(), harness.events(AgentEvent.AutoRetryStart.class), "an overflow is never retried");

        assertEquals(List.of("compactionSummary", "user", "assistant"), roles());
        assertEquals("a2", ((AgentMessage.Assistant) harness.session.messages().get(2)).text());
        assertEquals(harness.session.messages(), reload().buildContext(), "the file rebuilds the same context");
    }

    @Test
    void aReplyReportingMoreInputThanTheWindowIsASilentOverflow() {
        FauxStep tooBig = new FauxStep(null, "answer that did not fit", null, null, null, null, null, null, null,
                null, null, 130_000L, 10L);
        harness.enqueue(FauxStep.text("a1"), tooBig, FauxStep.text("summary"), FauxStep.text("regenerated"));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(harness.session.prompt("q2")::isDone);
        assertEquals("overflow", harness.events(AgentEvent.CompactionStart.class).get(0).reason());
        assertEquals(List.of("compactionSummary", "user", "assistant"), roles());
        assertEquals("regenerated", ((AgentMessage.Assistant) harness.session.messages().get(2)).text());
    }

    @Test
    void autoCompactionCanBeSwitchedOffAndThatIsPersisted() throws Exception {
        harness.session.settings().setAutoCompaction(false);
        harness.enqueue(FauxStep.text("a1"), overflow());
        await().until(harness.session.prompt("q1")::isDone);
        await().until(harness.session.prompt("q2")::isDone);
        assertEquals(List.of(), harness.events(AgentEvent.CompactionStart.class));
        assertTrue(!harness.session.state().autoCompactionEnabled());
        assertTrue(java.nio.file.Files.readString(dir.resolve("settings.json")).contains("\"enabled\" : false"));
    }

    @Test
    void aSecondOverflowForTheSameMessageEndsWithAnErrorInsteadOfLooping() {
        harness.enqueue(FauxStep.text("a1"), overflow(), FauxStep.text("summary"), overflow(), FauxStep.text("x"));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(harness.session.prompt("q2")::isDone);
        assertEquals(1, harness.events(AgentEvent.CompactionStart.class).size());
        List<AgentEvent.CompactionEnd> ends = harness.events(AgentEvent.CompactionEnd.class);
        assertEquals(2, ends.size());
        assertEquals(RecoveryAction.CompactionFailed.SECOND_OVERFLOW, ends.get(1).errorMessage());
        assertTrue(!ends.get(1).willRetry());
        assertEquals(3, harness.events(AgentEvent.AgentStart.class).size(), "no further run");
        assertEquals(4, harness.faux.requestCount(), "a1, overflow, summary, overflow: nothing more");
    }

    @Test
    void aLargeReplyTriggersThresholdCompactionWithoutContinuing() {
        FauxStep big = new FauxStep(null, "big answer", null, null, null, null, null, null, null, null, null,
                120_000L, 10L);
        harness.enqueue(big, FauxStep.text("threshold summary"));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(() -> harness.events(AgentEvent.CompactionEnd.class).size() == 1);
        assertEquals("threshold", harness.events(AgentEvent.CompactionStart.class).get(0).reason());
        AgentEvent.CompactionEnd end = harness.events(AgentEvent.CompactionEnd.class).get(0);
        assertTrue(!end.willRetry());
        assertEquals("threshold summary", end.result().summary());
        assertEquals(List.of(false), harness.events(AgentEvent.AgentEnd.class).stream()
                .map(AgentEvent.AgentEnd::willRetry).toList());
        assertEquals(List.of("compactionSummary", "assistant"), roles());
    }

    @Test
    void exhaustedRetriesStillGetTheCompactionCheck() throws Exception {
        harness.settings.set("retry.maxRetries", IntNode.valueOf(0));
        FauxStep bigFailure = new FauxStep(null, null, null, null, null, "503 service unavailable", 503, null, null,
                null, null, null, null);
        FauxStep big = new FauxStep(null, "big answer", null, null, null, null, null, null, null, null, null,
                120_000L, 10L);
        harness.enqueue(big, FauxStep.text("summary one"), bigFailure, FauxStep.text("summary two"));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(() -> harness.events(AgentEvent.CompactionEnd.class).size() == 1);
        harness.enqueue(FauxStep.text("filler"));
        // context is big again (estimate from the big reply's usage): the failed run still compacts
        await().until(harness.session.prompt("q2")::isDone);
        List<String> types = harness.types();
        assertTrue(types.lastIndexOf("auto_retry_end") < types.lastIndexOf("compaction_start"), types.toString());
    }

    @Test
    void manualCompactReturnsTheResult() throws Exception {
        harness.enqueue(FauxStep.text("a1"), FauxStep.text("a2"), FauxStep.text("manual summary"));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(harness.session.prompt("q2")::isDone);
        CompactionResult result = harness.session.compact("keep file names").get();
        assertEquals("manual summary", result.summary());
        assertTrue(result.tokensBefore() > 0);
        assertEquals(List.of("compactionSummary", "assistant"), roles());
        assertEquals(List.of("manual"), harness.events(AgentEvent.CompactionStart.class).stream()
                .map(AgentEvent.CompactionStart::reason).toList());
        AgentEvent.CompactionEnd end = harness.events(AgentEvent.CompactionEnd.class).get(0);
        assertEquals(new AgentEvent.CompactionEnd("manual", result, false, false, null), end);
        assertEquals("{\"readFiles\":[],\"modifiedFiles\":[]}", result.details().toString());
        assertFalse(harness.session.state().isCompacting());
    }

    @Test
    void manualCompactOfAnEmptySessionFailsWithItsEvents() {
        ExecutionException error = assertThrows(ExecutionException.class, () -> harness.session.compact(null).get());
        assertEquals("Nothing to compact (session too small)", error.getCause().getMessage());
        AgentEvent.CompactionEnd end = harness.events(AgentEvent.CompactionEnd.class).get(0);
        assertEquals("manual", end.reason());
        assertEquals("Compaction failed: Nothing to compact (session too small)", end.errorMessage());
    }

    @Test
    void manualCompactOfOneExchangeSummarizesEverything() throws Exception {
        harness.settings.set("compaction.keepRecentTokens", IntNode.valueOf(20_000));
        harness.enqueue(FauxStep.text("a1"), FauxStep.text("all of it"));
        await().until(harness.session.prompt("q1")::isDone);
        CompactionResult result = harness.session.compact(null).get();
        assertEquals("all of it", result.summary());
        assertEquals(null, result.firstKeptEntryId());
        assertEquals(List.of("compactionSummary"), roles());
        assertEquals(harness.session.messages(), reload().buildContext(), "the file rebuilds the same context");
    }

    @Test
    void anOverflowOnAShortHistoryKeepsTheWholeHistoryBesideTheSummary() throws Exception {
        harness.settings.set("compaction.keepRecentTokens", IntNode.valueOf(20_000));
        harness.enqueue(FauxStep.text("a1"), overflow(), FauxStep.text("short summary"), FauxStep.text("a2"));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(harness.session.prompt("q2")::isDone);
        AgentEvent.CompactionEnd end = harness.events(AgentEvent.CompactionEnd.class).get(0);
        assertEquals("overflow", end.reason());
        assertTrue(end.willRetry());
        assertEquals("short summary", end.result().summary());
        // as pi: the retried request carried summary, q1, a1, q2 (4 messages); then a2 answered it
        assertEquals(List.of("compactionSummary", "user", "assistant", "user", "assistant"), roles());
        assertEquals("a2", harness.session.lastAssistantText().orElseThrow());
    }

    @Test
    void anOverflowWithNothingToSummarizeSaysSoInTheEndEvent() {
        harness.enqueue(overflow());
        await().until(harness.session.prompt("q1")::isDone);
        AgentEvent.CompactionEnd end = harness.events(AgentEvent.CompactionEnd.class).get(0);
        assertEquals("overflow", end.reason());
        assertFalse(end.willRetry());
        assertEquals(null, end.result());
        assertEquals("Context overflow recovery failed: Nothing to compact (session too small)", end.errorMessage());
    }

    @Test
    void manualCompactOfTwoShortExchangesKeepsThemBesideTheSummary() throws Exception {
        harness.settings.set("compaction.keepRecentTokens", IntNode.valueOf(20_000));
        harness.enqueue(FauxStep.text("reply one"), FauxStep.text("reply two"), FauxStep.text("summary"));
        await().until(harness.session.prompt("one")::isDone);
        await().until(harness.session.prompt("two")::isDone);
        CompactionResult result = harness.session.compact(null).get();
        assertEquals(List.of("compactionSummary", "user", "assistant", "user", "assistant"), roles());
        assertEquals("one", ((AgentMessage.User) harness.session.messages().get(1)).text());
        assertEquals(harness.session.messages(), reload().buildContext(), "the file rebuilds the same context");
        // "summary" (7 chars) 2 tokens, "one" 1, "reply one" 3, "two" 1, "reply two" 3
        assertEquals(10, result.estimatedTokensAfter());
    }

    @Test
    void aSummaryRequestFailingTransientlyIsRetriedWithItsEvents() throws Exception {
        harness.enqueue(FauxStep.text("a1"), FauxStep.text("a2"), FauxStep.error(OVERLOADED, 529),
                FauxStep.text("summary at last"));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(harness.session.prompt("q2")::isDone);
        java.util.concurrent.CompletableFuture<CompactionResult> compact = harness.session.compact(null);
        await().until(() -> harness.scheduler.pendingDelays().contains(2000L));
        assertEquals(List.of(new AgentEvent.SummarizationRetryScheduled(1, 3, 2000, OVERLOADED)),
                harness.events(AgentEvent.SummarizationRetryScheduled.class));
        assertFalse(compact.isDone(), "waiting on the session's scheduler");
        harness.scheduler.advance(2000);
        assertEquals("summary at last", compact.get().summary());
        List<String> types = harness.types();
        int scheduled = types.indexOf("summarization_retry_scheduled");
        assertEquals(List.of("compaction_start", "summarization_retry_scheduled", "summarization_retry_attempt_start",
                "summarization_retry_finished", "compaction_end"), types.subList(scheduled - 1, scheduled + 4));
        assertEquals(new AgentEvent.SummarizationRetryAttemptStart("compaction", "manual"),
                harness.events(AgentEvent.SummarizationRetryAttemptStart.class).get(0));
    }

    @Test
    void aSummaryRetryWaitEndsOnAbort() {
        harness.enqueue(FauxStep.text("a1"), overflow(), FauxStep.error(OVERLOADED, 529));
        await().until(harness.session.prompt("q1")::isDone);
        java.util.concurrent.CompletableFuture<Void> prompt = harness.session.prompt("q2");
        await().until(() -> harness.scheduler.pendingDelays().contains(2000L));
        harness.session.abort();
        await().until(prompt::isDone);
        List<String> types = harness.types();
        assertEquals(List.of("summarization_retry_scheduled", "summarization_retry_finished", "compaction_end"),
                types.subList(types.indexOf("summarization_retry_scheduled"), types.indexOf("compaction_end") + 1));
        AgentEvent.CompactionEnd end = harness.events(AgentEvent.CompactionEnd.class).get(0);
        assertTrue(end.aborted());
        assertEquals(List.of(), harness.events(AgentEvent.SummarizationRetryAttemptStart.class));
        assertEquals(3, harness.faux.requestCount(), "a1, the overflow, one summary request");
    }

    @Test
    void aFinalSummaryErrorIsNotRetried() {
        harness.enqueue(FauxStep.text("a1"), overflow(), FauxStep.error("401 invalid x-api-key", 401));
        await().until(harness.session.prompt("q1")::isDone);
        await().until(harness.session.prompt("q2")::isDone);
        assertEquals(List.of(), harness.events(AgentEvent.SummarizationRetryScheduled.class));
        assertEquals(List.of(), harness.events(AgentEvent.SummarizationRetryFinished.class));
    }

    private SessionFile reload() {
        try {
            return SessionFile.load(Path.of(harness.session.sessionFile()), System::currentTimeMillis);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
