package dev.agentd.server.agent;

import dev.agentd.protocol.message.AgentMessage;
import java.util.List;

/**
 * What one run produced: the messages it added (for {@code agent_end.messages}) and its last
 * assistant message (what recovery looks at; null if the run produced none).
 */
public record RunOutcome(List<AgentMessage> newMessages, AgentMessage.Assistant lastAssistant) {
    public RunOutcome {
        newMessages = List.copyOf(newMessages);
    }
}
