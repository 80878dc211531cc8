package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code session/list}, {@code session/load} and {@code session/resume}: disk work, so done on a
 * worker thread of their own, one request at a time, never on the stdin reader — which meanwhile
 * serves {@code session/cancel}, permission answers and every other message at once. A list reads
 * each stored file's header (and name) only; a load reads exactly the one file its id names.
 */
final class StoredSessions {
    private static final Logger LOG = LoggerFactory.getLogger(StoredSessions.class);

    /** What a load needs of the connection: its live sessions, and opening and starting one. */
    interface Host {
        /** The live session the client knows as {@code sessionId}, or null. */
        AcpSession live(String sessionId);

        /** Opens {@code stored} and registers it under its listed id; throws {@link RequestFailed}. */
        AcpSession open(JsonNode params, SessionOpener.Stored stored);

        /** Starts forwarding its events, after its answer is written. */
        void started(AcpSession session);
    }

    private final SessionOpener opener;
    private final AcpConnection connection;
    private final Host host;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "agentd-acp-sessions");
        thread.setDaemon(true);
        return thread;
    });

    StoredSessions(SessionOpener opener, AcpConnection connection, Host host) {
        this.opener = opener;
        this.connection = connection;
        this.host = host;
    }

    /** {@code session/list} of {@code cwd}'s sessions, or (null) of every session (A7), answered from the worker. */
    void list(Path cwd, JsonNode id) {
        submit(id, () -> {
            ObjectNode result = AcpJson.object();
            var listed = result.putArray("sessions");
            for (SessionOpener.Stored stored : opener.stored(cwd)) {
                String storedCwd = stored.cwd() != null ? stored.cwd() : cwd != null ? cwd.toString() : null;
                if (storedCwd == null) {
                    continue; // a session without a known directory cannot be loaded from this list
                }
                ObjectNode info = listed.addObject().put("sessionId", stored.sessionId()).put("cwd", storedCwd)
                        .put("updatedAt", stored.updatedAt());
                if (stored.title() != null) {
                    info.put("title", stored.title());
                }
            }
            connection.result(id, result);
        });
    }

    /** {@code session/load} (replaying the history first) or {@code session/resume} (without). */
    void load(String sessionId, Path cwd, JsonNode params, JsonNode id, boolean replay) {
        submit(id, () -> {
            AcpSession session = sessionId == null ? null : host.live(sessionId);
            boolean fresh = session == null;
            if (fresh) {
                // By listed id, so by file: each id names one file (SessionOpener#stored).
                var matches = opener.stored(cwd).stream().filter(s -> s.sessionId().equals(sessionId)).toList();
                if (matches.size() != 1) {
                    throw new RequestFailed(-32002, "Resource not found: session '" + sessionId + "'");
                }
                session = host.open(params, matches.get(0));
            }
            if (replay) {
                session.history().forEach(session::update);
            }
            ObjectNode result = AcpJson.object();
            result.set("configOptions", session.configOptions());
            connection.result(id, result);
            if (fresh) {
                host.started(session);
                // A file that ends in a wait for a limit's reset waits again (FALLBACK §11).
                session.agent().rearmResume();
            }
        });
    }

    /**
     * {@code session/fork} (unstable ACP): a new session whose history is a copy of a live
     * session's current branch, written to a new file (the source goes on unchanged). A source
     * with no answered message yet forks into an empty session. Answers its id and config options.
     */
    void fork(String sessionId, JsonNode params, JsonNode id) {
        submit(id, () -> {
            AcpSession source = sessionId == null ? null : host.live(sessionId);
            if (source == null) {
                throw new RequestFailed(-32002, "Resource not found: session '" + sessionId
                        + "' (fork a session of this connection: load it first)");
            }
            Path copy = source.agent().copyBranch();
            if (copy == null && !source.agent().messages().isEmpty() && source.agent().sessionFile() == null) {
                throw new RequestFailed(-32603, "Internal error: forking needs session storage (agentd runs with "
                        + "--no-session)");
            }
            AcpSession fork = host.open(params, copy == null ? null
                    : new SessionOpener.Stored(null, null, copy, null, null));
            ObjectNode result = AcpJson.object().put("sessionId", fork.id());
            result.set("configOptions", fork.configOptions());
            connection.result(id, result);
            host.started(fork);
        });
    }

    /** Stops the worker: a load still reading is interrupted; waits at most {@code graceMs}. */
    void close(long graceMs) {
        worker.shutdownNow();
        try {
            if (!worker.awaitTermination(graceMs, TimeUnit.MILLISECONDS)) {
                LOG.warn("acp: a session load did not stop within {} ms", graceMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void submit(JsonNode id, Runnable work) {
        try {
            worker.execute(() -> {
                try {
                    work.run();
                } catch (RequestFailed e) {
                    if (id != null) {
                        connection.error(id, e.code, e.getMessage(), null);
                    }
                } catch (RuntimeException e) {
                    LOG.warn("acp: a session list or load failed: {}", e.getClass().getSimpleName());
                    if (id != null) {
                        connection.error(id, -32603, "Internal error: " + e.getClass().getSimpleName(), null);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            connection.error(id, -32603, "Internal error: the connection is closing", null);
        }
    }
}
