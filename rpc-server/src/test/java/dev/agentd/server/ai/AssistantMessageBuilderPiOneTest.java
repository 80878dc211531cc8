package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.testing.http.RecordingListener;
import java.util.List;
import org.junit.jupiter.api.Test;

/** pi 1.x additions the builder makes: toolcall_start names its call; responseModel. */
class AssistantMessageBuilderPiOneTest {
    private static final Model MODEL = new Model("m-1", "M", "openai-completions", "p", "http://x", true,
            List.of("text"), Model.Cost.FREE, 200_000, 4_096);

    @Test
    void toolcallStartCarriesIdAndToolNameInDeltaAndFullModes() {
        for (boolean full : new boolean[] {false, true}) {
            RecordingListener listener = new RecordingListener(full);
            AssistantMessageBuilder reply = new AssistantMessageBuilder(MODEL, 1L, listener);
            int text = reply.startText();
            reply.textDelta(text, "hi");
            int call = reply.startToolCall("call_7", "read");
            reply.toolCallDelta(call, "{}");
            reply.finish(StopReason.TOOL_USE);

            AssistantMessageEvent start = listener.events().get(2);
            assertEquals("toolcall_start", start.type());
            assertEquals("call_7", start.id());
            assertEquals("read", start.toolName());
            listener.events().stream().filter(e -> !e.type().equals("toolcall_start"))
                    .forEach(e -> assertNull(e.id(), "only toolcall_start names the call: " + e.type()));

            JsonNode wire = Json.mapper().valueToTree(new AgentEvent.MessageUpdate(start.partial(), start))
                    .path("assistantMessageEvent");
            assertEquals("call_7", wire.path("id").asText(), "full=" + full);
            assertEquals("read", wire.path("toolName").asText());
            assertEquals(1, wire.path("contentIndex").asInt());
            assertEquals(full, wire.has("partial"));
            JsonNode textStart = Json.mapper().valueToTree(new AgentEvent.MessageUpdate(null,
                    listener.events().get(0).withoutPartial())).path("assistantMessageEvent");
            assertFalse(textStart.has("id") || textStart.has("toolName"), "absent on other events");
            assertEquals("call_7", start.withoutPartial().id(), "delta mode keeps the names");
        }
    }

    @Test
    void everyEventCarriesTheLatestCumulativeUsageTheProviderReported() {
        RecordingListener listener = new RecordingListener(false);
        AssistantMessageBuilder reply = new AssistantMessageBuilder(MODEL, 1L, listener);
        int text = reply.startText();
        Usage opening = new Usage(100, 1, 0, 0, 101, Usage.Cost.ZERO);
        reply.usage(opening);
        reply.textDelta(text, "Hello ");
        Usage later = new Usage(100, 7, 0, 0, 107, Usage.Cost.ZERO);
        reply.usage(later);
        reply.textDelta(text, "world");
        reply.finish(StopReason.STOP);

        assertEquals(List.of("text_start", "text_delta", "text_delta", "text_end"),
                listener.events().stream().map(AssistantMessageEvent::type).toList());
        assertEquals(List.of(Usage.ZERO, opening, later, later), listener.usages(),
                "zero until the provider reports, then its latest figures");
    }

    @Test
    void aStreamingPartialIsPendingAndOnlyTheFinishedMessageHasItsStopReason() {
        RecordingListener listener = new RecordingListener(true);
        AssistantMessageBuilder reply = new AssistantMessageBuilder(MODEL, 1L, listener);
        reply.textDelta(reply.startText(), "hi");
        AgentMessage.Assistant done = reply.finish(StopReason.STOP);
        listener.events().forEach(event -> assertEquals(StopReason.PENDING, event.partial().stopReason(), event.type()));
        assertEquals("pending", Json.mapper().valueToTree(listener.events().get(0).partial()).path("stopReason").asText());
        assertEquals(StopReason.STOP, done.stopReason());
    }

    @Test
    void anAbortClosesTheOpenTextBlockWithItsEndButNotAHalfToolCall() {
        RecordingListener listener = new RecordingListener(false);
        AssistantMessageBuilder reply = new AssistantMessageBuilder(MODEL, 1L, listener);
        reply.textDelta(reply.startText(), "half a sen");
        int call = reply.startToolCall("c1", "read");
        reply.toolCallDelta(call, "{\"pa");
        AgentMessage.Assistant aborted = reply.aborted();
        assertEquals(List.of("text_start", "text_delta", "toolcall_start", "toolcall_delta", "text_end"),
                listener.events().stream().map(AssistantMessageEvent::type).toList());
        assertEquals("half a sen", listener.events().get(4).content());
        assertEquals(StopReason.ABORTED, aborted.stopReason());
    }

    @Test
    void responseModelIsKeptOnlyWhenTheProviderNamesAnotherModelAndTheFirstNameWins() {
        AssistantMessageBuilder same = new AssistantMessageBuilder(MODEL, 1L, new RecordingListener());
        same.reportedModel("m-1");
        assertNull(same.finish(StopReason.STOP).responseModel(), "equal to the requested id: absent");

        AssistantMessageBuilder other = new AssistantMessageBuilder(MODEL, 1L, new RecordingListener());
        other.reportedModel("");
        other.reportedModel("m-1-2026-01-01");
        other.reportedModel("m-1-later");
        AgentMessage.Assistant done = other.finish(StopReason.STOP);
        assertEquals("m-1-2026-01-01", done.responseModel());
        assertEquals("m-1", done.model(), "model stays the requested one");
        JsonNode wire = Json.mapper().valueToTree(done);
        assertEquals("m-1-2026-01-01", wire.path("responseModel").asText());
        assertEquals(done, Json.mapper().convertValue(wire, AgentMessage.class), "round trip");

        AssistantMessageBuilder failed = new AssistantMessageBuilder(MODEL, 1L, new RecordingListener());
        failed.reportedModel("m-2");
        assertEquals("m-2", failed.fail(ProviderError.of("boom")).responseModel(), "kept on failed replies");
        assertTrue(!Json.mapper().valueToTree(same.finish(StopReason.STOP)).has("responseModel"));
    }
}
