package dev.agentd.server.agent;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.QueueMode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Steering messages (delivered at the next interruption point: after a tool call or a turn) and
 * follow-ups (delivered when the agent would otherwise stop). Each queue is drained whole
 * ({@code all}) or one message per poll ({@code one-at-a-time}). Thread-safe: commands enqueue,
 * the run thread polls.
 */
public final class MessageQueues {
    private final Deque<AgentMessage.User> steering = new ArrayDeque<>();
    private final Deque<AgentMessage.User> followUp = new ArrayDeque<>();
    private volatile QueueMode steeringMode;
    private volatile QueueMode followUpMode;

    public MessageQueues(QueueMode steeringMode, QueueMode followUpMode) {
        this.steeringMode = steeringMode;
        this.followUpMode = followUpMode;
    }

    public synchronized void steer(AgentMessage.User message) {
        steering.addLast(message);
    }

    public synchronized void followUp(AgentMessage.User message) {
        followUp.addLast(message);
    }

    public synchronized List<AgentMessage.User> pollSteering() {
        return poll(steering, steeringMode);
    }

    public synchronized List<AgentMessage.User> pollFollowUp() {
        return poll(followUp, followUpMode);
    }

    public synchronized boolean hasSteering() {
        return !steering.isEmpty();
    }

    public synchronized int size() {
        return steering.size() + followUp.size();
    }

    /** Empties both queues and returns their texts. */
    public synchronized Cleared clear() {
        Cleared cleared = new Cleared(texts(steering), texts(followUp));
        steering.clear();
        followUp.clear();
        return cleared;
    }

    public record Cleared(List<String> steering, List<String> followUp) {}

    public QueueMode steeringMode() {
        return steeringMode;
    }

    public QueueMode followUpMode() {
        return followUpMode;
    }

    public void setSteeringMode(QueueMode mode) {
        steeringMode = mode;
    }

    public void setFollowUpMode(QueueMode mode) {
        followUpMode = mode;
    }

    private static List<AgentMessage.User> poll(Deque<AgentMessage.User> queue, QueueMode mode) {
        if (queue.isEmpty()) {
            return List.of();
        }
        if (mode == QueueMode.ONE_AT_A_TIME) {
            return List.of(queue.removeFirst());
        }
        List<AgentMessage.User> all = new ArrayList<>(queue);
        queue.clear();
        return all;
    }

    private static List<String> texts(Deque<AgentMessage.User> queue) {
        return queue.stream().map(AgentMessage.User::text).toList();
    }
}
