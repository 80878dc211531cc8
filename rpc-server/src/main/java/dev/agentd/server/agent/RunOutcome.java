package dev.agentd.server.agent;

import dev.agentd.protocol.message.AgentMessage;
import java.util.List;
import java.util.Set;

/**
 * What one run produced: the messages it added (for {@code agent_end.messages}) and its last
 * assistant message (what recovery looks at; null if the run produced none), and the ids of the
 * tool calls of that message whose input completed (their block ended) — what a cut reply may keep.
 */
public record RunOutcome(List<AgentMessage> newMessages, AgentMessage.Assistant lastAssistant,
        Set<String> completedToolCalls) {
    public RunOutcome {
        newMessages = List.copyOf(newMessages);
        completedToolCalls = completedToolCalls == null ? Set.of() : Set.copyOf(completedToolCalls);
    }

    public RunOutcome(List<AgentMessage> newMessages, AgentMessage.Assistant lastAssistant) {
        this(newMessages, lastAssistant, Set.of());
    }
}
