package dev.agentd.server.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.QueueMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** queue_update (SPEC §3.4): one report per change, holding what is still pending. */
class MessageQueuesTest {
    private final List<AgentEvent.QueueUpdate> updates = new ArrayList<>();

    private static AgentMessage.User user(String text) {
        return new AgentMessage.User(List.of(new ContentBlock.Text(text)), 0);
    }

    private static AgentEvent.QueueUpdate update(List<String> steering, List<String> followUp) {
        return new AgentEvent.QueueUpdate(steering, followUp);
    }

    @Test
    void queuingDeliveringAndClearingAreEachReported() {
        MessageQueues queues = new MessageQueues(QueueMode.ONE_AT_A_TIME, QueueMode.ALL, updates::add);
        queues.steer(user("s1"));
        queues.steer(user("s2"));
        queues.followUp(user("f1"));
        queues.pollSteering();
        queues.pollFollowUp();
        queues.pollFollowUp(); // nothing left: no change, no report
        queues.clear();
        queues.clear(); // already empty: no report
        assertEquals(List.of(
                update(List.of("s1"), List.of()),
                update(List.of("s1", "s2"), List.of()),
                update(List.of("s1", "s2"), List.of("f1")),
                update(List.of("s2"), List.of("f1")),
                update(List.of("s2"), List.of()),
                update(List.of(), List.of())), updates);
    }
}
