package dev.agentd.server.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.Replies;
import dev.agentd.server.tools.ToolRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Every message is in the journal before its message_end is emitted (a kill right after loses nothing). */
class AgentLoopPersistOrderTest {
    private static AgentMessage.Assistant reply(List<ContentBlock> content) {
        return Replies.reply().content(content).at(2)
                .stop(content.stream().anyMatch(b -> b instanceof ContentBlock.ToolCall) ? StopReason.TOOL_USE
                        : StopReason.STOP).build();
    }

    @Test
    void userAssistantAndToolResultArePersistedBeforeTheirMessageEnd() {
        Conversation conversation = new Conversation();
        List<AgentMessage> journal = new ArrayList<>();
        conversation.setJournal(new Conversation.Journal() {
            @Override
            public void appended(AgentMessage message) {
                journal.add(message);
            }

            @Override
            public void retracted(AgentMessage message) {}
        });
        List<String> checked = new ArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        AgentLoop.Streamer streamer = (context, listener, cancel) -> calls.getAndIncrement() == 0
                ? reply(List.of(new ContentBlock.ToolCall("c1", "missing", Json.mapper().createObjectNode())))
                : reply(List.of(new ContentBlock.Text("done")));
        AgentLoop loop = new AgentLoop(conversation, new MessageQueues(QueueMode.ONE_AT_A_TIME,
                QueueMode.ONE_AT_A_TIME), () -> new ToolRegistry(List.of()), streamer, event -> {
                    if (event instanceof AgentEvent.MessageEnd end) {
                        assertTrue(journal.contains(end.message()), "persisted before message_end: " + end.message());
                        checked.add(end.message().getClass().getSimpleName());
                    }
                }, () -> false, () -> 3);
        loop.run(List.of(new AgentMessage.User(List.of(new ContentBlock.Text("go")), 1)), new CancellationToken());
        assertEquals(List.of("User", "Assistant", "ToolResult", "Assistant"), checked);
    }
}
