package dev.agentd.server.sessionfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.runtime.OwnFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session as a tree of entries, mirrored to a version-3 JSONL file (SPEC §7).
 *
 * <ul>
 *   <li>Written lazily: nothing reaches the disk before the first message (a prompt); then the
 *       header and every buffered entry, then one line per entry, each with a single write (a
 *       killed process loses at most the line being written).</li>
 *   <li>The leaf is the entry new ones attach to. A retry moves it back to the failed reply's
 *       parent, so the failed reply stays in the file as a dead branch and the retried reply
 *       becomes its sibling: rebuilding the context from the path root→leaf skips it.</li>
 *   <li>Loading tolerates a truncated or garbled last line (a crash mid-write): it is ignored, and
 *       cut off before the next append so new lines start clean.</li>
 *   <li>A failed append (disk full) never glues the next line onto torn bytes: the file is cut back
 *       to its last whole line and the lines not written yet are retried, in order, with the next
 *       append. On load, an entry whose parent is missing (an unreadable line in the middle) is
 *       attached to the entry before it, so one bad line never cuts the earlier history off.</li>
 *   <li>Without a path (--no-session) everything stays in memory.</li>
 * </ul>
 * Thread-safe; the run thread appends, commands read.
 */
public final class SessionFile {
    private static final Logger LOG = LoggerFactory.getLogger(SessionFile.class);
    /** Loaded whole into memory; far above any real session, far below the heap. */
    public static final long MAX_LOAD_BYTES = 512L * 1024 * 1024;
    /** pi's entry type for state of an extension (here: agentd's own), kept out of the context. */
    public static final String CUSTOM = "custom";

    private final Path path;
    private final SessionHeader header;
    private final LongSupplier clock;
    private final List<SessionEntry> entries = new ArrayList<>();
    private final Map<String, SessionEntry> byId = new HashMap<>();
    private String leafId;
    private String name;
    private boolean onDisk;
    /** Lines of entries appended after the file exists but not written yet (a failed write). */
    private final List<byte[]> unwritten = new ArrayList<>();
    /** Entries loaded with a missing parent → the entry they follow in the file instead. */
    private final Map<String, String> adoptedParents = new HashMap<>();
    /** Null for a session kept in memory. */
    private final LineAppender appender;
    /** This process's mark as the file's one writer: taken on load or with the first write. */
    private SessionLock lock;
    /** A copy's source ({@link #readForCopy}): never written, never locked. */
    private boolean readOnly;
    private boolean closed;

    private SessionFile(Path path, SessionHeader header, LongSupplier clock, boolean onDisk) {
        this.path = path;
        this.header = header;
        this.clock = clock;
        this.onDisk = onDisk;
        this.appender = path == null ? null : new LineAppender(path);
    }

    /** A new session; {@code file} null keeps it in memory. Nothing is written yet. */
    public static SessionFile create(Path file, String cwd, String parentSession, LongSupplier clock) {
        SessionHeader header = new SessionHeader(SessionHeader.VERSION, RandomIds.uuid().toString(),
                iso(clock.getAsLong()), cwd, parentSession);
        return new SessionFile(file, header, clock, false);
    }

    /**
     * Reads a session file to write it: takes its {@link SessionLock} first, so a file another
     * process writes is refused with {@link SessionLockedException}. A bad last line is ignored; a
     * file without a valid header is refused, one over {@link #MAX_LOAD_BYTES} with {@link SessionTooLargeException}.
     */
    public static SessionFile load(Path file, LongSupplier clock) throws IOException {
        OwnFiles.requireOpenable(file, "a session file"); // before opening: a FIFO blocks, /dev/zero never ends
        SessionLock lock = null;
        try {
            lock = SessionLock.acquire(file);
        } catch (SessionLockedException e) {
            throw e;
        } catch (IOException e) {
            // A sidecar that is no plain file (planted) must not cost the session: open it unlocked.
            LOG.warn("session file {}: no lock ({}); opening it without one", file.getFileName(), e.getMessage());
        }
        try {
            SessionFile session = read(file, clock);
            session.lock = lock;
            return session;
        } catch (IOException | RuntimeException | Error e) {
            if (lock != null) {
                lock.release();
            }
            throw e;
        }
    }

    /**
     * Reads a session file without taking its lock, only to copy it ({@link #cloneBranch}): the
     * result is never written. For a session another process writes.
     */
    public static SessionFile readForCopy(Path file, LongSupplier clock) throws IOException {
        OwnFiles.requireOpenable(file, "a session file");
        SessionFile session = read(file, clock);
        session.readOnly = true;
        return session;
    }

    private static SessionFile read(Path file, LongSupplier clock) throws IOException {
        SessionFileReader.Loaded loaded = SessionFileReader.read(file);
        SessionFile session = new SessionFile(file, loaded.header(), clock, true);
        loaded.entries().forEach(session::add);
        session.adoptedParents.putAll(loaded.adoptedParents());
        session.appender.loaded(loaded.bytes(), loaded.lastLineReadable()); // a torn tail is ended or cut
        return session;
    }

    // --- appending ---------------------------------------------------------------------------

    public synchronized SessionEntry.Message appendMessage(AgentMessage message) {
        SessionEntry.Message entry = new SessionEntry.Message(newId(), leafId, now(), message);
        append(entry);
        return entry;
    }

    public synchronized void appendModelChange(String provider, String modelId, String reason,
            String originalProvider, String originalModelId) {
        append(new SessionEntry.ModelChange(newId(), leafId, now(), provider, modelId, reason, originalProvider,
                originalModelId));
    }

    public synchronized void appendThinkingLevel(String level) {
        append(new SessionEntry.ThinkingLevelChange(newId(), leafId, now(), level));
    }

    public synchronized SessionEntry.Compaction appendCompaction(String summary, String firstKeptEntryId,
            long tokensBefore, JsonNode details) {
        SessionEntry.Compaction entry = new SessionEntry.Compaction(newId(), leafId, now(), summary, firstKeptEntryId,
                tokensBefore, details);
        append(entry);
        return entry;
    }

    /**
     * An entry of pi's {@code custom} type ({@code customType}, {@code data}): state of agentd's
     * own that pi and older agentd keep verbatim and leave out of the context (FALLBACK §11).
     */
    public synchronized SessionEntry.Unknown appendCustom(String customType, ObjectNode data) {
        ObjectNode json = Json.mapper().createObjectNode();
        json.put("type", CUSTOM);
        json.put("id", newId());
        if (leafId == null) {
            json.putNull("parentId");
        } else {
            json.put("parentId", leafId);
        }
        json.put("timestamp", now());
        json.put("customType", customType);
        json.set("data", data);
        SessionEntry.Unknown entry = new SessionEntry.Unknown(json);
        append(entry);
        return entry;
    }

    /** The entry at the end of the active path, or empty in a file without entries. */
    public synchronized Optional<SessionEntry> leaf() {
        List<SessionEntry> branch = branch();
        return branch.isEmpty() ? Optional.empty() : Optional.of(branch.get(branch.size() - 1));
    }

    public synchronized void appendSessionInfo(String name) {
        append(new SessionEntry.SessionInfo(newId(), leafId, now(), name));
    }

    /**
     * Takes a message off the active path: the leaf moves to the parent of the latest entry holding
     * it, so that entry stays in the file as a dead branch.
     */
    public synchronized void retract(AgentMessage message) {
        List<SessionEntry> branch = branch();
        // The retracted message is normally the very instance recorded here: find it by identity
        // before comparing records by value (deep, and slow on first use of each record type).
        for (boolean byValue : new boolean[] {false, true}) {
            for (int i = branch.size() - 1; i >= 0; i--) {
                SessionEntry entry = branch.get(i);
                if (entry instanceof SessionEntry.Message held
                        && (held.message() == message || byValue && held.message().equals(message))) {
                    leafId = entry.parentId();
                    return;
                }
            }
        }
    }

    private void append(SessionEntry entry) {
        add(entry);
        if (path == null || readOnly) {
            return;
        }
        if (!onDisk) {
            // The first message of a prompt starts the file: a client that has seen its message_end
            // must find it after a kill (pi waits for the first reply; settings-only changes wait).
            if (!(entry instanceof SessionEntry.Message)) {
                return;
            }
            writeAll();
        } else {
            unwritten.add(JsonlLines.of(entry));
            if (appender.write(unwritten)) {
                unwritten.clear();
            }
        }
    }

    private void add(SessionEntry entry) {
        entries.add(entry);
        if (entry instanceof SessionEntry.SessionInfo info) {
            name = info.name(); // kept, not searched: get_state asks for it on every call
        }
        if (entry.id() != null) {
            byId.put(entry.id(), entry);
        }
        leafId = entry.id();
    }

    private void writeAll() {
        List<byte[]> lines = new ArrayList<>();
        lines.add(JsonlLines.of(header));
        for (SessionEntry entry : entries) {
            lines.add(JsonlLines.of(entry));
        }
        if (appender.createParent() && locked() && appender.write(lines)) {
            onDisk = true;
        }
    }

    /**
     * Takes the lock of a new file before its first write. Refused only when another process
     * holds it (then the entries stay in memory and the next message tries again); a sidecar that
     * cannot be used does not cost the session its file.
     */
    private boolean locked() {
        if (lock != null || closed) {
            return true; // closed: a late line of a stopping run still reaches the file
        }
        try {
            lock = SessionLock.acquire(path);
            return true;
        } catch (SessionLockedException e) {
            LOG.warn("{}; not writing to it", e.getMessage());
            return false;
        } catch (IOException e) {
            LOG.warn("session file {}: no lock ({}); writing without one", path.getFileName(), e.getMessage());
            return true;
        }
    }

    /**
     * The session is left (switched away from, or the process ends): its lock is released. Lines
     * of a run still stopping are written all the same. Idempotent.
     */
    public synchronized void close() {
        closed = true;
        if (lock != null) {
            lock.release();
            lock = null;
        }
    }

    /** Test seam: how buffers reach the channel. */
    synchronized void writeThrough(LineAppender.ChannelWriter writer) {
        appender.writeThrough(writer);
    }

    // --- reading -----------------------------------------------------------------------------

    public Path path() {
        return path;
    }

    public SessionHeader header() {
        return header;
    }

    public synchronized String leafId() {
        return leafId;
    }

    public synchronized List<SessionEntry> entries() {
        return List.copyOf(entries);
    }

    /** The entries and the leaf at one instant ({@code get_entries}, {@code get_tree}). */
    public synchronized EntrySnapshot snapshot() {
        return new EntrySnapshot(entries, leafId);
    }

    public synchronized Optional<SessionEntry> entry(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The entries from the root to the leaf. */
    public synchronized List<SessionEntry> branch() {
        return branchTo(leafId);
    }

    private List<SessionEntry> branchTo(String id) {
        List<SessionEntry> path = new ArrayList<>();
        SessionEntry entry = id == null ? null : byId.get(id);
        while (entry != null && path.size() <= entries.size()) { // bounded: a corrupt file may loop
            path.add(entry);
            String parent = adoptedParents.getOrDefault(entry.id(), entry.parentId());
            entry = parent == null ? null : byId.get(parent);
        }
        Collections.reverse(path);
        return path;
    }

    /**
     * The conversation on the current branch: after the latest compaction, its summary, the kept
     * entries from {@code firstKeptEntryId}, then everything after the compaction.
     */
    public synchronized List<AgentMessage> buildContext() {
        return ContextBuilder.build(branch());
    }

    /**
     * The conversation on the current branch as it happened: every message, also those a
     * compaction replaced in the context, with each compaction's summary at its place.
     */
    public synchronized List<AgentMessage> transcript() {
        return ContextBuilder.transcript(branch());
    }

    /** The last value of a kind of entry on the current branch. */
    public synchronized <T extends SessionEntry> Optional<T> latest(Class<T> type) {
        List<SessionEntry> branch = branch();
        for (int i = branch.size() - 1; i >= 0; i--) {
            if (type.isInstance(branch.get(i))) {
                return Optional.of(type.cast(branch.get(i)));
            }
        }
        return Optional.empty();
    }

    /** The session's name: the latest session_info entry anywhere in the file. */
    public synchronized Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /**
     * A new session holding the branch up to (not including) the user message {@code entryId}, with
     * this file as its parent. Entry ids are kept.
     */
    public synchronized SessionFile forkBefore(String entryId, Path newFile) {
        SessionEntry target = byId.get(entryId);
        if (!(target instanceof SessionEntry.Message message) || !(message.message() instanceof AgentMessage.User)) {
            throw new IllegalArgumentException("Invalid entry ID for forking: " + entryId);
        }
        SessionFile fork = create(newFile, header.cwd(), path == null ? null : path.toString(), clock);
        for (SessionEntry entry : branchTo(target.parentId())) {
            fork.add(entry);
        }
        return fork;
    }

    /** A new session holding the whole current branch, with this file as its parent (pi's {@code clone}). */
    public synchronized SessionFile cloneBranch(Path newFile) {
        SessionFile copy = create(newFile, header.cwd(), path == null ? null : path.toString(), clock);
        for (SessionEntry entry : branchTo(leafId)) {
            copy.add(entry);
        }
        return copy;
    }

    /** Writes a forked or otherwise pre-filled session now (it already holds assistant messages). */
    public synchronized void flushIfPending() {
        if (path != null && !readOnly && !onDisk && entries.stream().anyMatch(entry -> entry instanceof SessionEntry.Message m
                && m.message() instanceof AgentMessage.Assistant)) {
            writeAll();
        }
    }

    // --- helpers -----------------------------------------------------------------------------

    private String newId() {
        String id;
        do {
            id = RandomIds.uuid().toString().substring(0, 8);
        } while (byId.containsKey(id));
        return id;
    }

    private String now() {
        return iso(clock.getAsLong());
    }

    private static String iso(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }
}
