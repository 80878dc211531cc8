package dev.agentd.server.agent;

import dev.agentd.protocol.message.AgentMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The agent's working context. The run thread changes it; readers (get_state, get_messages)
 * see an immutable snapshot republished after each change, so a query during streaming never
 * waits for the run.
 */
public final class Conversation {
    private final List<AgentMessage> messages = new ArrayList<>();
    private volatile List<AgentMessage> snapshot = List.of();

    public synchronized void append(AgentMessage message) {
        messages.add(message);
        publish();
    }

    /** Removes the last message if it matches; returns whether it did. */
    public synchronized boolean removeLastIf(Predicate<AgentMessage> predicate) {
        if (!messages.isEmpty() && predicate.test(messages.get(messages.size() - 1))) {
            messages.remove(messages.size() - 1);
            publish();
            return true;
        }
        return false;
    }

    public synchronized void replaceAll(List<AgentMessage> replacement) {
        messages.clear();
        messages.addAll(replacement);
        publish();
    }

    /** The current messages, immutable. */
    public List<AgentMessage> snapshot() {
        return snapshot;
    }

    private void publish() {
        snapshot = List.copyOf(messages);
    }
}
