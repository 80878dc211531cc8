package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.agent.Conversation;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.fallback.control.TurnBoundary;
import dev.agentd.server.sessionfile.SessionFile;
import java.nio.file.Path;

/**
 * The session-file commands (SPEC §6): each makes a file the session's — its context, its model
 * when resumed (never a fallback model, see {@link ResumePoint}), no retry chain, no fallback
 * episode. Run thread only, after the run was aborted.
 */
final class SessionFiles {
    private final SessionContext context;
    private final SessionJournal journal;
    private final Conversation conversation;
    private final RunControl control;
    private final TurnBoundary boundary;
    private final ModelControl models;
    private final EventBus bus;

    SessionFiles(SessionContext context, SessionJournal journal, Conversation conversation, RunControl control,
            TurnBoundary boundary, ModelControl models, EventBus bus) {
        this.context = context;
        this.journal = journal;
        this.conversation = conversation;
        this.control = control;
        this.boundary = boundary;
        this.models = models;
        this.bus = bus;
    }

    /** Makes {@code file} the session's file; {@code fresh}: a new file, nothing to resume. */
    void adopt(SessionFile file, boolean fresh) {
        conversation.replaceAll(file.buildContext());
        control.resetChain();
        boundary.reset();
        if (file.entries().isEmpty()) {
            ModelChoice choice = models.choice();
            journal.modelChanged(choice.model());
            journal.thinkingChanged(choice.effective());
        } else if (!fresh) {
            ResumePoint saved = ResumePoint.of(file.branch());
            Model model = saved.provider() == null ? null
                    : context.models().find(saved.provider(), saved.modelId()).orElse(null);
            models.restore(model, saved.thinkingLevel());
        }
    }

    void startNew(String parentSession) {
        adopt(journal.startNew(parentSession), true);
    }

    void open(Path path) {
        adopt(journal.open(path), false);
    }

    /** Continues in a new session holding the history before {@code entryId}; returns that message's text. */
    String fork(String entryId) {
        String text = journal.fork(entryId);
        adopt(journal.file(), false);
        return text;
    }

    void cloneCurrent() {
        adopt(journal.cloneCurrent(), false);
    }

    /** Records the session's name and announces it. */
    void name(String name) {
        journal.file().appendSessionInfo(name);
        bus.publish(new AgentEvent.SessionInfoChanged(name));
    }
}
