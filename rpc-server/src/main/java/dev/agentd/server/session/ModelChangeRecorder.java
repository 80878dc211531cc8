package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelChoice;

/**
 * What a model or thinking change leaves behind: a session-file entry, a {@code model_changed}
 * event, and {@code thinking_level_changed} whenever the effective level moves (SPEC §3.4).
 */
final class ModelChangeRecorder implements ModelControl.Observer {
    private final SessionJournal journal;
    private final EventBus bus;

    ModelChangeRecorder(SessionJournal journal, EventBus bus) {
        this.journal = journal;
        this.bus = bus;
    }

    @Override
    public void modelChanged(ModelControl.Switched change) {
        journal.modelChanged(change.now().model(), change.source(), change.original());
        bus.publish(new AgentEvent.ModelChanged(change.now().model(), change.now().effective(),
                change.source().wire()));
    }

    @Override
    public void thinkingChanged(ModelChoice now) {
        journal.thinkingChanged(now.effective());
    }

    @Override
    public void effectiveThinkingChanged(ThinkingLevel level) {
        bus.publish(new AgentEvent.ThinkingLevelChanged(level));
    }
}
