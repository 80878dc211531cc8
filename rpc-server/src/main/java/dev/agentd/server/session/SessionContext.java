package dev.agentd.server.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.ProviderRegistry;
import dev.agentd.server.auth.AuthStore;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.tools.ToolRegistry;
import dev.agentd.server.sessions.SessionPaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collaborators a session is built from, assembled once by the CLI wiring (or by a test).
 *
 * @param systemPrompt built per request (it names the date and the tools)
 * @param sessionPaths where new session files go; null keeps sessions in memory (--no-session)
 */
public record SessionContext(
        ModelRegistry models,
        ProviderRegistry providers,
        AuthStore auth,
        SettingsStore settings,
        Scheduler scheduler,
        ToolRegistry tools,
        Supplier<String> systemPrompt,
        Path cwd,
        SessionPaths sessionPaths) {

    private static final Logger LOG = LoggerFactory.getLogger(SessionContext.class);

    /**
     * Applies a settings toggle now and persists it to the global file. A file that cannot be
     * written (malformed, read-only) is reported on stderr; the toggle still applies in memory.
     */
    public void persist(String key, Object value) {
        JsonNode node = Json.mapper().valueToTree(value);
        try {
            settings.set(key, node);
        } catch (IOException e) {
            LOG.warn("could not persist setting '{}': {}", key, e.getMessage());
        }
    }
}
