package dev.agentd.server.agent;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.QueueMode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * Steering messages (delivered at the next interruption point: after a tool call or a turn) and
 * follow-ups (delivered when the agent would otherwise stop). Each queue is drained whole
 * ({@code all}) or one message per poll ({@code one-at-a-time}). Thread-safe: commands enqueue,
 * the run thread polls. Every change (queued, delivered, cleared) is reported to the listener as a
 * {@code queue_update} holding the texts still pending (SPEC §3.4), under the lock, so the reports
 * arrive in the order of the changes.
 */
public final class MessageQueues {
    private final Deque<AgentMessage.User> steering = new ArrayDeque<>();
    private final Deque<AgentMessage.User> followUp = new ArrayDeque<>();
    private volatile QueueMode steeringMode;
    private volatile QueueMode followUpMode;

    private final Consumer<AgentEvent.QueueUpdate> listener;

    public MessageQueues(QueueMode steeringMode, QueueMode followUpMode) {
        this(steeringMode, followUpMode, update -> {});
    }

    public MessageQueues(QueueMode steeringMode, QueueMode followUpMode, Consumer<AgentEvent.QueueUpdate> listener) {
        this.steeringMode = steeringMode;
        this.followUpMode = followUpMode;
        this.listener = listener;
    }

    public synchronized void steer(AgentMessage.User message) {
        steering.addLast(message);
        changed();
    }

    public synchronized void followUp(AgentMessage.User message) {
        followUp.addLast(message);
        changed();
    }

    public synchronized List<AgentMessage.User> pollSteering() {
        return changedIfAny(poll(steering, steeringMode));
    }

    public synchronized List<AgentMessage.User> pollFollowUp() {
        return changedIfAny(poll(followUp, followUpMode));
    }

    /**
     * {@link #pollSteering()} without the report: for a delivery at the start of the next turn, which
     * {@link #reportDelivered()} announces after that turn's {@code turn_start}, as pi 1.6 orders them.
     */
    public synchronized List<AgentMessage.User> takeSteering() {
        return poll(steering, steeringMode);
    }

    /** {@link #pollFollowUp()} without the report (see {@link #takeSteering()}). */
    public synchronized List<AgentMessage.User> takeFollowUp() {
        return poll(followUp, followUpMode);
    }

    /** Reports the queues as they are now, after a {@code take}'s delivery began. */
    public synchronized void reportDelivered() {
        changed();
    }

    public synchronized int size() {
        return steering.size() + followUp.size();
    }

    /** Empties both queues and returns their texts. */
    public synchronized Cleared clear() {
        Cleared cleared = new Cleared(texts(steering), texts(followUp));
        boolean any = !steering.isEmpty() || !followUp.isEmpty();
        steering.clear();
        followUp.clear();
        if (any) {
            changed();
        }
        return cleared;
    }

    private List<AgentMessage.User> changedIfAny(List<AgentMessage.User> delivered) {
        if (!delivered.isEmpty()) {
            changed();
        }
        return delivered;
    }

    /** Caller holds the lock. */
    private void changed() {
        listener.accept(new AgentEvent.QueueUpdate(texts(steering), texts(followUp)));
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
