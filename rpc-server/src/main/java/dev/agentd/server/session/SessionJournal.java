package dev.agentd.server.session;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.agent.Conversation;
import dev.agentd.server.sessionfile.SessionEntry;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.sessionfile.SessionPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The session's file: what the conversation and the model control record into it, and the
 * replacing of it ({@code new_session}, {@code switch_session}, {@code fork}). The current file is
 * swapped only while the session is idle.
 */
final class SessionJournal implements Conversation.Journal {
    private final SessionPaths paths;
    private final Path cwd;
    private final LongSupplier clock;
    private volatile SessionFile file;

    SessionJournal(SessionFile initial, SessionPaths paths, Path cwd, LongSupplier clock) {
        this.file = initial;
        this.paths = paths;
        this.cwd = cwd;
        this.clock = clock;
    }

    SessionFile file() {
        return file;
    }

    @Override
    public void appended(AgentMessage message) {
        file.appendMessage(message);
    }

    @Override
    public void retracted(AgentMessage message) {
        file.retract(message);
    }

    /** The model a new file starts with: an entry as pi writes it, {@code {provider, modelId}}. */
    void modelChanged(Model model) {
        file.appendModelChange(model.provider(), model.id(), null, null, null);
    }

    /**
     * A switch. User choices and resume are written as pi writes them; fallback switches add
     * {@code reason} and the original model (FALLBACK §5.6), which resume uses to return to it.
     */
    void modelChanged(Model model, ModelControl.Source source, Model original) {
        if (source.fallback()) {
            file.appendModelChange(model.provider(), model.id(), source.wire(), original.provider(), original.id());
        } else {
            modelChanged(model);
        }
    }

    void thinkingChanged(ThinkingLevel level) {
        file.appendThinkingLevel(level.wire());
    }

    /** A fresh file (in memory with --no-session), not written before its first reply. */
    SessionFile startNew(String parentSession) {
        Path path = paths == null ? null : paths.newFile(cwd, clock.getAsLong());
        return replace(SessionFile.create(path, cwd.toString(), parentSession, clock));
    }

    SessionFile open(Path path) {
        try {
            return replace(SessionFile.load(path, clock));
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot open session " + path + ": " + e.getMessage());
        }
    }

    /** Forks before a user message; returns the text of that message. */
    String fork(String entryId) {
        SessionEntry target = file.entry(entryId).orElse(null);
        Path path = paths == null ? null : paths.newFile(cwd, clock.getAsLong());
        SessionFile fork = file.forkBefore(entryId, path);
        fork.flushIfPending();
        replace(fork);
        return ((AgentMessage.User) ((SessionEntry.Message) target).message()).text();
    }

    /** A copy of the current branch in a new file (the current one becomes its parent). */
    SessionFile cloneCurrent() {
        Path path = paths == null ? null : paths.newFile(cwd, clock.getAsLong());
        SessionFile copy = file.cloneBranch(path);
        copy.flushIfPending();
        return replace(copy);
    }

    /**
     * A copy of the current branch in a new file that this session does not adopt (ACP's
     * {@code session/fork}: the source goes on as it was). Null without session storage, or when
     * the branch holds no answered message yet (nothing worth a file: the fork starts empty).
     */
    Path copyBranch() {
        if (paths == null) {
            return null;
        }
        Path path = paths.newFile(cwd, clock.getAsLong());
        SessionFile copy = file.cloneBranch(path);
        try {
            copy.flushIfPending();
        } finally {
            copy.close();
        }
        return Files.exists(path) ? path : null;
    }

    /** The current file becomes {@code next}; the one left behind gives up its lock. */
    private SessionFile replace(SessionFile next) {
        SessionFile left = file;
        file = next;
        left.close();
        return next;
    }

    /** The session ends: its file's lock goes. */
    void close() {
        file.close();
    }

    /** Every user message of the file, for choosing a fork point. */
    List<Results.ForkMessage> forkMessages() {
        return file.entries().stream()
                .filter(entry -> entry instanceof SessionEntry.Message message
                        && message.message() instanceof AgentMessage.User)
                .map(entry -> new Results.ForkMessage(entry.id(),
                        ((AgentMessage.User) ((SessionEntry.Message) entry).message()).text()))
                .toList();
    }

    /** The file's path, absent with --no-session. */
    String pathText() {
        return file.path() == null ? null : file.path().toString();
    }
}
