package dev.agentd.server.acp;

import dev.agentd.server.mcp.McpConfig;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.tools.FileAccess;
import dev.agentd.server.tools.Tool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Builds the sessions of one ACP connection with the process's shared wiring (models, providers,
 * credentials, settings, circuit breakers); implemented by the daemon's wiring, so this package
 * never depends on {@code cli}.
 */
public interface SessionOpener {

    /**
     * A session working in {@code cwd}: the one stored in {@code existing}, or a new one when that
     * is null. {@code edit} and {@code write} go through {@code files}; {@code decorate} wraps the
     * built-in tools and the MCP servers' (permission requests). The session's MCP servers are the
     * editor's ({@code editorServers}) and settings.json's (an editor's entry wins on a name); each
     * one's failure reaches {@code problems}, a sentence, from any thread.
     *
     * @throws Refused when {@code existing} cannot be opened for a reason the user should read
     *     (another agentd process writes it, it is too large)
     */
    AgentSession open(Path cwd, Path existing, FileAccess files, UnaryOperator<List<Tool>> decorate,
            McpConfig.Parsed editorServers, Consumer<String> problems) throws IOException;

    /**
     * The sessions stored for {@code cwd} (null: for every working directory), newest first; empty
     * without session storage. A file
     * that cannot be read is left out. Read from each file's header (and name) only, never a whole
     * file; each {@code sessionId} names exactly one file, even when files share a header id.
     */
    List<Stored> stored(Path cwd);

    /**
     * A session on disk: its id, working directory, file, title (its name, else its first user
     * message; or null) and last change (ISO-8601).
     */
    record Stored(String sessionId, String cwd, Path file, String title, String updatedAt) {}

    /** A text setting of settings.json by dotted path, e.g. {@code acp.permissions}. */
    Optional<String> setting(String path);

    /**
     * What the user must be told when a session opens: the project settings ignored because the
     * project is not trusted (SPEC §2). Empty by default.
     */
    default List<String> settingsNotices() {
        return List.of();
    }

    /** A stored session that cannot be opened here, with a message saying why and what to do. */
    final class Refused extends IOException {
        public Refused(String message) {
            super(message);
        }
    }
}
