package dev.agentd.server.cli;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.jsonl.JsonlReader;
import dev.agentd.server.rpc.CommandRouter;
import dev.agentd.server.rpc.JsonRpcMode;
import dev.agentd.server.rpc.PiDialect;
import dev.agentd.server.rpc.RpcMode;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.sessionfile.SessionLockedException;
import dev.agentd.server.sessionfile.SessionPaths;
import dev.agentd.server.sessionfile.SessionTooLargeException;
import dev.agentd.server.wire.RpcOutput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one session of the pi dialects ({@code --mode rpc} and {@code jsonrpc}) and its router, built
 * at start-up on the file {@code --session} or {@code --continue} names (else a new one). ACP builds
 * none: its editor opens sessions (session/new, load, resume), so in that mode no session file is
 * touched before it asks.
 */
final class PiSession {
    private static final Logger LOG = LoggerFactory.getLogger(PiSession.class);

    private final AgentSession session;
    private final CommandRouter router;

    PiSession(AgentSession session, CommandRouter router) {
        this.session = session;
        this.router = router;
    }

    /** The dialect {@code mode} names ({@code jsonrpc}, else {@code rpc}) over this session. */
    PiDialect dialect(String mode, InputStream in, RpcOutput output) {
        return mode.equals("jsonrpc") ? new JsonRpcMode(in, output, router, JsonlReader.DEFAULT_MAX_LINE_BYTES)
                : new RpcMode(in, output, router, JsonlReader.DEFAULT_MAX_LINE_BYTES);
    }

    /** Forwards the session's events to {@code dialect} and announces {@code ready} there. */
    void announce(PiDialect dialect, String mode, List<String> warnings) {
        session.subscribe(dialect::emit);
        session.subscribe(DecisionLog::onEvent);
        dialect.emit(new AgentEvent.Ready(Version.current(), mode, session.models().current(), warnings));
        // A continued file that ends in a wait for a limit's reset waits again (FALLBACK §11).
        session.rearmResume();
    }

    void reportStartupWarnings(List<String> warnings) {
        session.reportStartupWarnings(warnings);
    }

    /** Aborts the run, waits for it to settle (at most {@code graceMs}) and closes the session. */
    void stop(long graceMs) {
        session.shuttingDown(); // a wait for a limit's reset survives the restart (FALLBACK §11)
        try {
            session.abort().get(graceMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("the run did not stop within {} ms; exiting anyway", graceMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.warn("abort failed during shutdown: {}", e.getCause().toString());
        }
        session.close();
    }

    /**
     * {@code --session FILE} (opened, or started there), {@code --continue} (latest of the cwd), else
     * new. {@code --session} on a file it cannot take (another process writes it, too large) stops
     * start-up with what to do; {@code --continue} then goes on in a copy of the locked session, or
     * in a new session when the latest is too large, with a ready warning saying so.
     */
    static SessionFile openFile(CliOptions options, SessionPaths paths, Path cwd, SystemScheduler clock,
            StartupWarnings warnings) throws CliOptions.UsageException, IOException {
        if (options.sessionFile() != null) {
            Path file = options.sessionFile().toAbsolutePath();
            if (Files.exists(file)) {
                try {
                    return SessionFile.load(file, clock::now);
                } catch (SessionLockedException e) {
                    throw new CliOptions.UsageException("--session: " + e.getMessage()
                            + "; close it there first, or start without --session");
                } catch (SessionTooLargeException e) {
                    throw new CliOptions.UsageException("--session: " + e.getMessage()
                            + "; start without --session for a new session (the file is left as it is)");
                } catch (IOException e) {
                    throw new CliOptions.UsageException("--session: " + e.getMessage());
                }
            }
            return SessionFile.create(file, cwd.toString(), null, clock::now);
        }
        SessionFile fresh = SessionFile.create(paths == null ? null : paths.newFile(cwd, clock.now()), cwd.toString(),
                null, clock::now);
        if (options.continueSession() && paths != null) {
            Optional<Path> latest = paths.latest(cwd);
            if (latest.isPresent()) {
                try {
                    return SessionFile.load(latest.get(), clock::now);
                } catch (SessionLockedException e) {
                    try {
                        SessionFile copy = SessionFile.readForCopy(latest.get(), clock::now).cloneBranch(fresh.path());
                        copy.flushIfPending();
                        warn(warnings, "--continue: " + e.getMessage() + "; continuing in a copy of it: " + copy.path());
                        return copy;
                    } catch (IOException unreadable) {
                        warn(warnings, "--continue: " + e.getMessage() + " and cannot be copied ("
                                + unreadable.getMessage() + "); starting a new session");
                        return fresh;
                    }
                } catch (SessionTooLargeException e) {
                    warn(warnings, "--continue: " + e.getMessage() + "; starting a new session (the file is left as it is)");
                    return fresh;
                }
            }
            LOG.info("no previous session for {}; starting a new one", cwd);
        }
        return fresh;
    }

    private static void warn(StartupWarnings warnings, String warning) {
        LOG.warn(warning);
        warnings.add(warning);
    }
}
