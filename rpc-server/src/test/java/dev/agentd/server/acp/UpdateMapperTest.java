package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.event.CompactionResult;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.testing.SealedCases;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every session event kind → its ACP updates (or none), and only kinds of the stable v1 schema. */
class UpdateMapperTest {
    private static final Set<String> STABLE_KINDS = Set.of("user_message_chunk", "agent_message_chunk",
            "agent_thought_chunk", "tool_call", "tool_call_update", "plan", "available_commands_update",
            "current_mode_update", "config_option_update", "session_info_update", "usage_update", "notice",
            "compaction_update");
    private static final Path CWD = Path.of("/work/project");
    private static final ObjectNode WRITE_ARGS = AcpJson.object().put("path", "src/a.txt").put("content", "new");
    private static final ArrayNode OPTIONS = AcpJson.array().add(AcpJson.object().put("id", "model"));

    private static UpdateMapper.View view(boolean notices) {
        return view(notices, true);
    }

    private static UpdateMapper.View view(boolean notices, boolean compaction) {
        return view(notices, compaction, null);
    }

    private static UpdateMapper.View view(boolean notices, boolean compaction, UpdateMapper.RetryCard card) {
        Map<String, JsonNode> args = Map.of("t1", WRITE_ARGS);
        return new UpdateMapper.View(notices, 1_000_000L, CWD, 200_000, "transient", args::get, () -> OPTIONS,
                compaction, "compaction-7", () -> 4_242, "overloaded", card);
    }

    private static List<ObjectNode> map(AgentEvent event) {
        List<ObjectNode> updates = UpdateMapper.map(event, view(true));
        updates.forEach(u -> assertTrue(STABLE_KINDS.contains(u.path("sessionUpdate").asText()), u.toString()));
        return updates;
    }

    private static ObjectNode one(AgentEvent event) {
        List<ObjectNode> updates = map(event);
        assertEquals(1, updates.size(), updates.toString());
        return updates.get(0);
    }

    private static AgentEvent.MessageUpdate streamed(String type, String delta, ContentBlock.ToolCall call) {
        return new AgentEvent.MessageUpdate(null, new AssistantMessageEvent(type, 0, delta, null, call, null));
    }

    @Test
    void textAndThinkingDeltasAreChunks() {
        ObjectNode text = one(streamed("text_delta", "Hel", null));
        assertEquals("agent_message_chunk", text.path("sessionUpdate").asText());
        assertEquals("Hel", text.path("content").path("text").asText());
        assertEquals("text", text.path("content").path("type").asText());
        ObjectNode thought = one(streamed("thinking_delta", "hmm", null));
        assertEquals("agent_thought_chunk", thought.path("sessionUpdate").asText());
        assertEquals("hmm", thought.path("content").path("text").asText());
        assertEquals(List.of(), map(streamed("text_start", null, null)));
        assertEquals(List.of(), map(streamed("text_delta", "", null)));
    }

    @Test
    void aToolCallIsPendingThenRunningThenCompletedWithItsDiff() {
        ObjectNode call = one(streamed("toolcall_end", null, new ContentBlock.ToolCall("t1", "write", WRITE_ARGS, null)));
        assertEquals("tool_call", call.path("sessionUpdate").asText());
        assertEquals("t1", call.path("toolCallId").asText());
        assertEquals("edit", call.path("kind").asText());
        assertEquals("pending", call.path("status").asText());
        assertEquals("Write src/a.txt", call.path("title").asText());
        assertEquals("/work/project/src/a.txt", call.path("locations").path(0).path("path").asText());
        assertEquals(WRITE_ARGS, call.path("rawInput"));

        ObjectNode running = one(new AgentEvent.ToolExecutionStart("t1", "write", WRITE_ARGS));
        assertEquals("tool_call_update", running.path("sessionUpdate").asText());
        assertEquals("in_progress", running.path("status").asText());

        ObjectNode partial = one(new AgentEvent.ToolExecutionUpdate("t1", "write", WRITE_ARGS,
                new ToolOutput(List.of(new ContentBlock.Text("so far", null)), null)));
        assertEquals("so far", partial.path("content").path(0).path("content").path("text").asText());

        ObjectNode done = one(new AgentEvent.ToolExecutionEnd("t1", "write",
                new ToolOutput(List.of(new ContentBlock.Text("Successfully wrote 3 bytes", null)), null), false));
        assertEquals("completed", done.path("status").asText());
        JsonNode diff = done.path("content").path(0);
        assertEquals("diff", diff.path("type").asText());
        assertEquals("/work/project/src/a.txt", diff.path("path").asText());
        assertTrue(diff.path("oldText").isNull());
        assertEquals("new", diff.path("newText").asText());
        assertEquals("Successfully wrote 3 bytes", done.path("content").path(1).path("content").path("text").asText());
    }

    private static UpdateMapper.View streaming(String messageId, java.util.function.Predicate<String> askedFirst,
            Map<String, JsonNode> args) {
        return new UpdateMapper.View(false, 1_000_000L, CWD, 200_000, null, args::get, () -> OPTIONS, false, null,
                () -> 0, null, null, messageId, askedFirst);
    }

    /** A3/Z2: each reply names its message, so a retried answer is a new message, apart from a failed one's text. */
    @Test
    void chunksCarryTheMessageIdOfTheirReply() {
        ObjectNode first = UpdateMapper.map(streamed("text_delta", "partial", null), streaming("msg-1", n -> false,
                Map.of())).get(0);
        ObjectNode retried = UpdateMapper.map(streamed("text_delta", "answer", null), streaming("msg-2", n -> false,
                Map.of())).get(0);
        ObjectNode thought = UpdateMapper.map(streamed("thinking_delta", "hmm", null), streaming("msg-2", n -> false,
                Map.of())).get(0);
        assertEquals("msg-1", first.path("messageId").asText());
        assertEquals("msg-2", retried.path("messageId").asText());
        assertEquals("msg-2", thought.path("messageId").asText());
        assertTrue(one(streamed("text_delta", "x", null)).path("messageId").isMissingNode(), "none known: none sent");
    }

    /** A11: a call that asks first is not announced running at its start (EditorTools says so once allowed). */
    @Test
    void aCallThatAsksFirstStaysPendingAtItsStart() {
        var askedFirst = streaming(null, "bash"::equals, Map.of());
        assertEquals(List.of(), UpdateMapper.map(new AgentEvent.ToolExecutionStart("t1", "bash", null), askedFirst));
        assertEquals("in_progress", UpdateMapper.map(new AgentEvent.ToolExecutionStart("t2", "read", null), askedFirst)
                .get(0).path("status").asText());
    }

    /** A6/Z6: the card's final update keeps the editor terminal the command ran in, before the text. */
    @Test
    void aTerminalRunKeepsItsTerminalInTheCard() {
        ObjectNode done = one(new AgentEvent.ToolExecutionEnd("t1", "bash", new ToolOutput(
                List.of(new ContentBlock.Text("out", null)), AcpJson.object().put("terminalId", "term-9")), false));
        assertEquals("{\"type\":\"terminal\",\"terminalId\":\"term-9\"}", done.path("content").path(0).toString());
        assertEquals("out", done.path("content").path(1).path("content").path("text").asText());
    }

    /** Item 6: a successful todo call is the client's plan, whole, priority medium when not given. */
    @Test
    void aTodoCallBecomesAPlan() throws Exception {
        JsonNode args = dev.agentd.protocol.json.Json.mapper().readTree("{\"todos\":[{\"content\":\"read\","
                + "\"status\":\"completed\",\"priority\":\"high\"},{\"content\":\"fix\",\"status\":\"in_progress\"}]}");
        List<ObjectNode> updates = UpdateMapper.map(new AgentEvent.ToolExecutionEnd("t1", "todo", new ToolOutput(
                List.of(new ContentBlock.Text("Todo list updated", null)), null), false),
                streaming(null, n -> false, Map.of("t1", args)));
        assertEquals(List.of("tool_call_update", "plan"), updates.stream().map(u -> u.path("sessionUpdate").asText()).toList());
        assertEquals("[{\"content\":\"read\",\"priority\":\"high\",\"status\":\"completed\"},"
                + "{\"content\":\"fix\",\"priority\":\"medium\",\"status\":\"in_progress\"}]",
                updates.get(1).path("entries").toString());
        List<ObjectNode> failed = UpdateMapper.map(new AgentEvent.ToolExecutionEnd("t1", "todo", new ToolOutput(
                List.of(new ContentBlock.Text("Invalid", null)), null), true), streaming(null, n -> false, Map.of("t1", args)));
        assertEquals(1, failed.size(), "a failed call changes no plan");
        assertEquals(null, TodoPlan.update("todo", AcpJson.object().put("todos", "nope")));
        assertEquals(null, TodoPlan.update("write", args));
    }

    @Test
    void aFailedToolCallIsFailedWithoutADiff() {
        ObjectNode failed = one(new AgentEvent.ToolExecutionEnd("t1", "write",
                new ToolOutput(List.of(new ContentBlock.Text("denied", null)), null), true));
        assertEquals("failed", failed.path("status").asText());
        assertEquals(1, failed.path("content").size());
        assertEquals("content", failed.path("content").path(0).path("type").asText());
    }

    @Test
    void toolKindsAndTitles() {
        assertEquals("execute", ToolCalls.kind("bash"));
        assertEquals("read", ToolCalls.kind("read"));
        assertEquals("search", ToolCalls.kind("grep"));
        assertEquals("search", ToolCalls.kind("find"));
        assertEquals("other", ToolCalls.kind("custom"));
        assertEquals("Run `ls -la`", ToolCalls.title("bash", AcpJson.object().put("command", "ls\n-la"), CWD));
        ObjectNode edit = AcpJson.object().put("path", "b.txt").put("oldText", "x").put("newText", "y");
        JsonNode diff = ToolCalls.diff("edit", edit, CWD);
        assertEquals("x", diff.path("oldText").asText());
        assertEquals("y", diff.path("newText").asText());
    }

    @Test
    void anAssistantMessageEndReportsUsage() {
        AgentMessage.Assistant reply = new AgentMessage.Assistant(List.of(), "api", "p", "m",
                new Usage(100, 20, 5, 0, 125, new Usage.Cost(0, 0, 0, 0, 0.25)), StopReason.STOP, null, 0);
        ObjectNode usage = one(new AgentEvent.MessageEnd(reply));
        assertEquals("usage_update", usage.path("sessionUpdate").asText());
        assertEquals(125, usage.path("used").asLong());
        assertEquals(200_000, usage.path("size").asLong());
        assertEquals(0.25, usage.path("cost").path("amount").asDouble());
        assertEquals("USD", usage.path("cost").path("currency").asText());
        assertEquals(List.of(), map(new AgentEvent.MessageEnd(new AgentMessage.User(List.of(), 0))));
    }

    @Test
    void theRepliesRateLimitFiguresRideInUsageUpdatesMeta() {
        AgentMessage.Assistant reply = new AgentMessage.Assistant(List.of(), "api", "p", "m",
                new Usage(100, 20, 5, 0, 125, new Usage.Cost(0, 0, 0, 0, 0)), StopReason.STOP, null, 0);
        RateLimits limits = new RateLimits("p/m", new RateLimits.Window(50L, 10L, 9_000L, 0.8, null), null, null,
                null, Map.of("5h", new RateLimits.Window(null, null, 7_000L, 0.91, "allowed")), "allowed", 0.91, 5);
        UpdateMapper.View base = view(true);
        UpdateMapper.View view = new UpdateMapper.View(true, base.nowMs(), CWD, 200_000, "transient",
                base.toolArgs(), () -> OPTIONS, true, "compaction-7", () -> 4_242, "overloaded", null, null,
                tool -> false, selector -> selector.equals("p/m") ? limits : null);
        List<ObjectNode> updates = UpdateMapper.map(new AgentEvent.MessageEnd(reply), view);
        JsonNode meta = updates.get(0).path("_meta").path("agentd/rateLimits");
        assertEquals("p/m", meta.path("selector").asText());
        assertEquals(0.91, meta.path("windows").path("5h").path("utilization").asDouble());
        assertEquals(10, meta.path("requests").path("remaining").asLong());
        assertEquals(7_000, meta.path("windows").path("5h").path("resetAt").asLong());
        assertTrue(one(new AgentEvent.MessageEnd(reply)).path("_meta").isMissingNode(), "no figures, no _meta");
        assertEquals(List.of(), map(new AgentEvent.RateLimitUpdate("p/m", 0.8, 0.91, limits)),
                "the event itself has no ACP counterpart");
    }

    @Test
    void aFailedOrAbortedReplyKeepsTheContextMeterAtTheSessionsEstimate() {
        for (StopReason reason : List.of(StopReason.ERROR, StopReason.ABORTED)) {
            AgentMessage.Assistant failed = new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO, reason,
                    "529 overloaded", 0);
            ObjectNode usage = one(new AgentEvent.MessageEnd(failed));
            assertEquals(4_242, usage.path("used").asLong(), reason + ": not 0 (A10)");
            assertEquals(200_000, usage.path("size").asLong());
        }
    }

    @Test
    void aCompactionIsOneEntryUpdatedInPlaceWhenTheClientAdvertisesIt() {
        ObjectNode start = one(new AgentEvent.CompactionStart("overflow"));
        assertEquals("compaction_update", start.path("sessionUpdate").asText());
        assertEquals("compaction-7", start.path("compactionId").asText());
        assertEquals("in_progress", start.path("status").asText());
        assertEquals("overflow", start.path("_meta").path("agentd/reason").asText());
        ObjectNode done = one(new AgentEvent.CompactionEnd("overflow",
                new CompactionResult("the summary", "e1", 9_000, null), false, true, null));
        assertEquals("compaction-7", done.path("compactionId").asText());
        assertEquals("completed", done.path("status").asText());
        assertEquals("the summary", done.path("summary").path(0).path("text").asText());
        assertEquals(9_000, done.path("_meta").path("agentd/tokensBefore").asLong());
        ObjectNode failed = one(new AgentEvent.CompactionEnd("manual", null, false, false,
                "summary failed: " + "x".repeat(5_000)));
        assertEquals("failed", failed.path("status").asText());
        assertTrue(failed.path("error").asText().length() <= 200, "bounded: " + failed.path("error").asText().length());
        assertEquals("cancelled", one(new AgentEvent.CompactionEnd("manual", null, true, false, null))
                .path("status").asText());
        // ACP: only to a client that advertised session.compaction
        assertEquals(List.of(), UpdateMapper.map(new AgentEvent.CompactionStart("overflow"), view(true, false)));
        assertEquals(List.of(), UpdateMapper.map(new AgentEvent.CompactionEnd("overflow", null, false, true, null),
                view(true, false)));
    }

    @Test
    void aBackoffIsAWarningNoticeWithRetryMeta() {
        ObjectNode notice = one(new AgentEvent.AutoRetryStart(2, 3, 4_000, "529 overloaded"));
        assertEquals("notice", notice.path("sessionUpdate").asText());
        assertEquals("warning", notice.path("severity").asText());
        assertEquals("Retrying in 4 s (attempt 2/3): 529 overloaded", notice.path("title").asText());
        JsonNode meta = notice.path("_meta").path("agentd/retry");
        assertEquals(2, meta.path("attempt").asInt());
        assertEquals(3, meta.path("maxAttempts").asInt());
        assertEquals(4_000, meta.path("delayMs").asLong());
        assertEquals("1970-01-01T00:16:44Z", meta.path("nextRetryAt").asText());
        assertEquals("transient", meta.path("errorClass").asText());
    }

    @Test
    void aResumeAtResetIsAWarningNoticeSayingWhen() {
        ObjectNode notice = one(new AgentEvent.RetryResumeScheduled("anthropic/claude", 3_600_000, 3_000, "usage_limit"));
        assertEquals("notice", notice.path("sessionUpdate").asText());
        assertEquals("warning", notice.path("severity").asText());
        assertEquals("Limit reached (usage limit): resuming anthropic/claude at 1970-01-01T01:00:00Z",
                notice.path("title").asText());
        JsonNode meta = notice.path("_meta").path("agentd/resume");
        assertEquals("1970-01-01T01:00:00Z", meta.path("resumeAt").asText());
        assertEquals(3_000, meta.path("waitMs").asLong());
        assertEquals("usage_limit", meta.path("reason").asText());
        assertEquals("anthropic/claude", meta.path("selector").asText());
    }

    @Test
    void withoutNoticesABackoffIsAMessageChunkCarryingTheSameMeta() {
        List<ObjectNode> updates = UpdateMapper.map(new AgentEvent.AutoRetryStart(1, 3, 1_500, "boom"), view(false));
        ObjectNode chunk = updates.get(0);
        assertEquals("agent_message_chunk", chunk.path("sessionUpdate").asText());
        assertTrue(chunk.path("content").path("text").asText().contains("Retrying in 2 s (attempt 1/3): boom"));
        assertEquals(1_500, chunk.path("_meta").path("agentd/retry").path("delayMs").asLong());
    }

    @Test
    void withoutNoticesARetryChainIsOneToolCallCardNeverCarryingTheProvidersText() {
        String raw = "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"},\"request_id\":\"req_011\"}";
        UpdateMapper.RetryCard fresh = new UpdateMapper.RetryCard("agentd-retry-1", true);
        UpdateMapper.RetryCard open = new UpdateMapper.RetryCard("agentd-retry-1", false);
        ObjectNode first = UpdateMapper.map(new AgentEvent.AutoRetryStart(1, 3, 2_000, raw), view(false, false, fresh)).get(0);
        assertEquals("tool_call", first.path("sessionUpdate").asText());
        assertEquals("agentd-retry-1", first.path("toolCallId").asText());
        assertEquals("other", first.path("kind").asText());
        assertEquals("in_progress", first.path("status").asText());
        assertEquals("Retrying in 2 s (1/3): overloaded", first.path("title").asText());
        assertEquals(2_000, first.path("_meta").path("agentd/retry").path("delayMs").asLong());
        ObjectNode second = UpdateMapper.map(new AgentEvent.AutoRetryStart(2, 3, 4_000, raw), view(false, false, open)).get(0);
        assertEquals("tool_call_update", second.path("sessionUpdate").asText());
        assertEquals("Retrying in 4 s (2/3): overloaded", second.path("title").asText());
        ObjectNode done = UpdateMapper.map(new AgentEvent.AutoRetryEnd(true, 2, null), view(false, false, open)).get(0);
        assertEquals("completed", done.path("status").asText());
        assertEquals("agentd-retry-1", done.path("toolCallId").asText());
        ObjectNode failed = UpdateMapper.map(new AgentEvent.AutoRetryEnd(false, 3, raw), view(false, false, open)).get(0);
        assertEquals("failed", failed.path("status").asText());
        assertEquals("Retry stopped after attempt 3: overloaded", failed.path("title").asText());
        for (ObjectNode update : List.of(first, second, done, failed)) {
            assertTrue(!update.toString().contains("req_011"), "no raw provider body: " + update);
        }
        assertEquals(List.of(), UpdateMapper.map(new AgentEvent.AutoRetryEnd(false, 0, "refused"), view(false, false)),
                "an end without an open card (a retry refused before one opened) shows nothing");
    }

    @Test
    void aFallbackIsANoticeAndAModelChangeAConfigOptionUpdate() {
        ObjectNode notice = one(new AgentEvent.RetryFallbackApplied("faux/a", "faux/b", "faux/a", "rate_limited", null));
        assertEquals("notice", notice.path("sessionUpdate").asText());
        assertEquals("Switched from faux/a to faux/b (rate_limited)", notice.path("title").asText());
        assertEquals("faux/b", notice.path("_meta").path("agentd/fallback").path("to").asText());
        ObjectNode options = one(new AgentEvent.ModelChanged(null, ThinkingLevel.OFF, "fallback"));
        assertEquals("config_option_update", options.path("sessionUpdate").asText());
        assertEquals(OPTIONS, options.path("configOptions"));
        assertEquals("config_option_update",
                one(new AgentEvent.ThinkingLevelChanged(ThinkingLevel.HIGH)).path("sessionUpdate").asText());
    }

    @Test
    void aSessionNameIsASessionInfoUpdate() {
        ObjectNode info = one(new AgentEvent.SessionInfoChanged("Fix the build"));
        assertEquals("session_info_update", info.path("sessionUpdate").asText());
        assertEquals("Fix the build", info.path("title").asText());
    }

    @Test
    void eventsWithoutAnAcpCounterpartMapToNothing() {
        List<AgentEvent> silent = List.of(new AgentEvent.AgentStart(), new AgentEvent.AgentEnd(List.of(), null),
                new AgentEvent.TurnStart(), new AgentEvent.TurnEnd(null, List.of()),
                new AgentEvent.MessageStart(null), new AgentEvent.AutoRetryEnd(true, 1, null),
                new AgentEvent.QueueUpdate(List.of(), List.of()),
                new AgentEvent.RetryFallbackSucceeded("faux/b", "k"),
                new AgentEvent.RetryFallbackReverted("faux/b", "faux/a", "probe"),
                new AgentEvent.RetryFallbackExhausted("k", "e"), new AgentEvent.RetryProbeScheduled("faux/a", 1, 0),
                new AgentEvent.RetryProbeResult("faux/a", true, null),
                new AgentEvent.FallbackCircuitOpened("faux/a", 1, null), new AgentEvent.FallbackCircuitClosed("faux/a"));
        for (AgentEvent event : silent) {
            assertEquals(List.of(), map(event), event.toString());
        }
    }

    /** Exhaustive (issue 23): each event kind is mapped, or listed as having no counterpart. */
    @Test
    void everyEventKindIsMappedOrListedAsHavingNoCounterpart() throws ReflectiveOperationException {
        for (AgentEvent event : SealedCases.instances(AgentEvent.class)) {
            if (UpdateMapper.NO_COUNTERPART.contains(event.getClass())) {
                assertEquals(List.of(), UpdateMapper.map(event, view(true)), event.type());
            } else {
                map(event); // throws "unhandled session event" when neither mapped nor listed
            }
        }
    }

    @Test
    void anEventNeitherMappedNorListedFailsLoudly() {
        AgentEvent.QueueUpdate queue = new AgentEvent.QueueUpdate(List.of(), List.of());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> UpdateMapper.map(queue, view(true), Set.of()));
        assertEquals("unhandled session event: QueueUpdate", e.getMessage());
    }

    @Test
    void everyToolOutputBlockIsShownOrListedAsNotToolOutput() {
        for (Class<?> type : SealedCases.permitted(ContentBlock.class)) {
            assertTrue(type == ContentBlock.Text.class || type == ContentBlock.Image.class
                    || UpdateMapper.NOT_TOOL_OUTPUT.contains(type), type.getSimpleName());
        }
    }
}
