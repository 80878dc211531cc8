package dev.agentd.server.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.ai.ModelAvailability;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.ProviderRegistry;
import dev.agentd.server.auth.AuthStore;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.sessionfile.SessionPaths;
import dev.agentd.server.tools.ToolRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collaborators a session is built from, assembled once by the CLI wiring (or by a test).
 *
 * @param systemPrompt built per request (it names the date and the tools)
 * @param sessionPaths where new session files go; null keeps sessions in memory (--no-session)
 * @param random the one source of randomness for decisions (jitter of cooldowns, see
 *     {@code fallback.CooldownCause}), injected so tests can seed it; shared across threads, so it must be
 *     thread-safe ({@link java.util.Random} is)
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
        SessionPaths sessionPaths,
        RandomGenerator random) {

    private static final Logger LOG = LoggerFactory.getLogger(SessionContext.class);

    public SessionContext {
        Objects.requireNonNull(random, "random: the session's one source of randomness (seed it in tests)");
    }

    /** Whether a model can be called now, and why not (one answer for every asker). */
    public ModelAvailability availability() {
        return new ModelAvailability(models, providers, auth::hasCredential, auth::missingKeyMessage);
    }

    public void persist(String key, Object value, boolean toFile) {
        if (toFile) {
            persist(key, value);
        } else {
            settings.setForProcess(key, Json.mapper().valueToTree(value));
        }
    }

    /**
     * Applies a settings toggle now and persists it to the global file (see {@link #persist(String, Object,
     * boolean)} for one that lasts only for this process). A file that cannot be written (malformed,
     * read-only) is logged; the toggle still applies in memory.
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
