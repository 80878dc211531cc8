package dev.agentd.server.agent;

import dev.agentd.protocol.message.AgentMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The agent's working context. The run thread changes it; readers (get_state, get_messages)
 * see an immutable snapshot republished after each change, so a query during streaming never
 * waits for the run. Appends and retractions are mirrored to a {@link Journal} (the session file).
 */
public final class Conversation {
    /** Where appended and retracted messages are recorded. */
    public interface Journal {
        void appended(AgentMessage message);

        void retracted(AgentMessage message);

        Journal NONE = new Journal() {
            @Override
            public void appended(AgentMessage message) {}

            @Override
            public void retracted(AgentMessage message) {}
        };
    }

    private final List<AgentMessage> messages = new ArrayList<>();
    private volatile List<AgentMessage> snapshot = List.of();
    private volatile Journal journal = Journal.NONE;
    /** The last reply kept from a cut stream (identity matters: see {@link #keptAtEnd}). */
    private AgentMessage.Assistant kept;

    public void setJournal(Journal journal) {
        this.journal = journal;
    }

    public synchronized void append(AgentMessage message) {
        messages.add(message);
        publish();
        journal.appended(message);
    }

    /**
     * Appends what a retry kept of a cut reply (SPEC §5.9) and remembers it: the next run continues
     * it (runs its calls, or continues its text) only while it is still the last message.
     */
    public synchronized void appendKept(AgentMessage.Assistant message) {
        append(message);
        kept = message;
    }

    /** The kept reply of {@link #appendKept} if it is still the last message. */
    public synchronized Optional<AgentMessage.Assistant> keptAtEnd() {
        return kept != null && !messages.isEmpty() && messages.get(messages.size() - 1) == kept
                ? Optional.of(kept) : Optional.empty();
    }

    /** Removes the last message if it matches; returns whether it did. */
    public synchronized boolean removeLastIf(Predicate<AgentMessage> predicate) {
        if (!messages.isEmpty() && predicate.test(messages.get(messages.size() - 1))) {
            AgentMessage removed = messages.remove(messages.size() - 1);
            publish();
            journal.retracted(removed);
            return true;
        }
        return false;
    }

    /** Replaces the context without journaling (it was rebuilt from the journal). */
    public synchronized void replaceAll(List<AgentMessage> replacement) {
        messages.clear();
        messages.addAll(replacement);
        publish();
    }

    /** The current messages, immutable. */
    /** The text of the last assistant message that has any. */
    public Optional<String> lastAssistantText() {
        List<AgentMessage> messages = snapshot();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof AgentMessage.Assistant reply && !reply.text().isEmpty()) {
                return Optional.of(reply.text());
            }
        }
        return Optional.empty();
    }

    public List<AgentMessage> snapshot() {
        return snapshot;
    }

    private void publish() {
        snapshot = List.copyOf(messages);
    }
}
