package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.testing.SealedCases;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A stored conversation → the updates session/load replays, in order. */
class HistoryReplayTest {

    @Test
    void replaysUserTextRepliesThoughtsAndToolCallsInOrder() {
        ObjectNode args = AcpJson.object().put("path", "a.txt").put("oldText", "x").put("newText", "y");
        List<AgentMessage> messages = List.of(
                new AgentMessage.User(List.of(new ContentBlock.Text("fix it", null),
                        new ContentBlock.Image("AAAA", "image/png")), 0),
                new AgentMessage.Assistant(List.of(new ContentBlock.Thinking("hmm", null, null),
                        new ContentBlock.Text("On it.", null), new ContentBlock.ToolCall("t1", "edit", args, null)),
                        "api", "p", "m", Usage.ZERO, StopReason.TOOL_USE, null, 0),
                new AgentMessage.ToolResult("t1", "edit", List.of(new ContentBlock.Text("done", null)), null, false, 0),
                new AgentMessage.ToolResult("t2", "bash", List.of(new ContentBlock.Text("exit 1", null)), null, true, 0));
        List<ObjectNode> updates = HistoryReplay.updates(messages, Path.of("/w"), false);
        assertEquals(List.of("user_message_chunk", "user_message_chunk", "agent_thought_chunk", "agent_message_chunk",
                "tool_call", "tool_call_update", "tool_call_update"),
                updates.stream().map(u -> u.path("sessionUpdate").asText()).toList());
        assertEquals("fix it", updates.get(0).path("content").path("text").asText());
        assertEquals("image", updates.get(1).path("content").path("type").asText());
        assertEquals("hmm", updates.get(2).path("content").path("text").asText());
        assertEquals("On it.", updates.get(3).path("content").path("text").asText());
        assertEquals("Edit a.txt", updates.get(4).path("title").asText());
        assertEquals("/w/a.txt", updates.get(4).path("locations").path(0).path("path").asText());
        ObjectNode finished = updates.get(5);
        assertEquals("completed", finished.path("status").asText());
        assertEquals("diff", finished.path("content").path(0).path("type").asText());
        assertEquals("done", finished.path("content").path(1).path("content").path("text").asText());
        assertEquals("failed", updates.get(6).path("status").asText());
        // each chunk names its message: the user's two blocks one message, the reply another
        assertEquals(updates.get(0).path("messageId"), updates.get(1).path("messageId"));
        assertEquals(updates.get(2).path("messageId"), updates.get(3).path("messageId"));
        assertTrue(!updates.get(0).path("messageId").equals(updates.get(3).path("messageId")));
    }

    /** A1/Z5: the summary stands where the compaction was made, between the earlier and later messages. */
    @Test
    void aCompactionSummaryIsReplayedAtItsPlace() {
        List<AgentMessage> transcript = List.of(
                new AgentMessage.User(List.of(new ContentBlock.Text("old", null)), 0),
                new AgentMessage.CompactionSummary("what was said", 900, 0),
                new AgentMessage.User(List.of(new ContentBlock.Text("new", null)), 0));
        List<ObjectNode> shown = HistoryReplay.updates(transcript, Path.of("/w"), true);
        assertEquals(List.of("user_message_chunk", "compaction_update", "user_message_chunk"),
                shown.stream().map(u -> u.path("sessionUpdate").asText()).toList());
        assertEquals("completed", shown.get(1).path("status").asText());
        assertEquals("what was said", shown.get(1).path("summary").path(0).path("text").asText());
        assertEquals(900, shown.get(1).path("_meta").path("agentd/compaction").path("tokensBefore").asLong());
        // a client that does not show compactions gets the summary as a marked message of its own
        List<ObjectNode> plain = HistoryReplay.updates(transcript, Path.of("/w"), false);
        assertEquals("agent_message_chunk", plain.get(1).path("sessionUpdate").asText());
        assertTrue(plain.get(1).path("content").path("text").asText().contains("what was said"));
        assertTrue(plain.get(1).path("_meta").has("agentd/compaction"));
    }

    /** Exhaustive (issue 23): each stored message and block kind is replayed, or listed as not. */
    @Test
    void everyMessageAndBlockKindIsReplayedOrListedAsNot() {
        Set<Class<?>> replayed = Set.of(AgentMessage.User.class, AgentMessage.Assistant.class,
                AgentMessage.ToolResult.class, AgentMessage.CompactionSummary.class);
        for (Class<?> type : SealedCases.permitted(AgentMessage.class)) {
            assertTrue(replayed.contains(type) ^ HistoryReplay.NOT_REPLAYED.contains(type), type.getSimpleName());
        }
        Map<Set<Class<? extends ContentBlock>>, Set<Class<?>>> shown = Map.of(
                HistoryReplay.NOT_IN_USER_CHUNKS, Set.of(ContentBlock.Text.class, ContentBlock.Image.class),
                HistoryReplay.NOT_IN_REPLY_CHUNKS, Set.of(ContentBlock.Text.class, ContentBlock.Thinking.class,
                        ContentBlock.ToolCall.class),
                HistoryReplay.NOT_IN_RESULTS, Set.of(ContentBlock.Text.class));
        shown.forEach((notShown, handled) -> {
            for (Class<?> type : SealedCases.permitted(ContentBlock.class)) {
                assertTrue(handled.contains(type) ^ notShown.contains(type), type.getSimpleName());
            }
        });
    }

    @Test
    void aBlockNeitherShownNorListedFailsLoudly() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HistoryReplay.skip(new ContentBlock.Image("AA==", "image/png"), Set.of()));
        assertEquals("unhandled content block: Image", e.getMessage());
    }
}
