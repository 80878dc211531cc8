package dev.agentd.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import dev.agentd.server.acp.SessionOpener;
import dev.agentd.server.acp.SessionTitles;
import dev.agentd.protocol.response.McpServerStatus;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.ProviderRegistry;
import dev.agentd.server.auth.AuthStore;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.fallback.control.FallbackServices;
import dev.agentd.server.mcp.McpConfig;
import dev.agentd.server.mcp.McpServerSpec;
import dev.agentd.server.mcp.McpServers;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.session.SessionContext;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.sessionfile.SessionListing;
import dev.agentd.server.sessionfile.SessionLockedException;
import dev.agentd.server.sessionfile.SessionPaths;
import dev.agentd.server.sessionfile.SessionTooLargeException;
import dev.agentd.server.tools.FileAccess;
import dev.agentd.server.tools.SystemPrompt;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolRegistry;
import dev.agentd.server.tools.Tools;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds sessions on the process's shared services: the one daemon session of the rpc dialects
 * and each session an ACP connection opens. Everything here is shared by the sessions (models,
 * providers, credentials and their blocks, settings, the scheduler, fallback services); only the
 * tools, the system prompt and the session file belong to one session.
 */
final class SessionFactory implements SessionOpener {
    private static final Logger LOG = LoggerFactory.getLogger(SessionFactory.class);
    private final ModelRegistry models;
    private final ProviderRegistry providers;
    private final AuthStore auth;
    private final SettingsStore settings;
    private final Scheduler scheduler;
    private final List<String> toolNames;
    private final SessionPaths sessionPaths;
    private final FallbackServices fallback;
    private final Model model;
    private final ThinkingLevel thinking;
    private final UpdateMode updates;
    private final Map<String, String> env;
    // Seeded from the clock: cheap at startup, unlike SecureRandom; jitter need not be unguessable.
    private final Random random = new Random();

    /** @param env agentd's environment: {@code ${NAME}} in an MCP server's settings entry reads it */
    SessionFactory(ModelRegistry models, ProviderRegistry providers, AuthStore auth, SettingsStore settings,
            Scheduler scheduler, List<String> toolNames, SessionPaths sessionPaths, FallbackServices fallback,
            Model model, ThinkingLevel thinking, UpdateMode updates, Map<String, String> env) {
        this.env = Map.copyOf(env);
        this.models = models;
        this.providers = providers;
        this.auth = auth;
        this.settings = settings;
        this.scheduler = scheduler;
        this.toolNames = List.copyOf(toolNames);
        this.sessionPaths = sessionPaths;
        this.fallback = fallback;
        this.model = model;
        this.thinking = thinking;
        this.updates = updates;
    }

    /** A session on {@code file} with the given tools, working in {@code cwd}. */
    AgentSession create(Path cwd, SessionFile file, ToolRegistry tools) {
        SystemPrompt systemPrompt = SystemPrompt.onSystemClock(cwd, tools.builtInDefinitions());
        SessionContext context = new SessionContext(models, providers, auth, settings, scheduler, tools,
                systemPrompt::build, cwd, sessionPaths, random);
        return new AgentSession(context, file, model, thinking, updates, fallback);
    }

    /**
     * The rpc dialects' session: {@code builtIn} plus the tools of settings.json's MCP servers
     * (started in the background; none, and no MCP class loaded, when the setting is absent).
     */
    AgentSession create(Path cwd, SessionFile file, List<Tool> builtIn) {
        // null, not Parsed.none(): without the setting no MCP class is loaded (start-up must not move).
        return withMcp(cwd, file, builtIn, UnaryOperator.identity(), null, problem -> {});
    }

    @Override
    public AgentSession open(Path cwd, Path existing, FileAccess files, UnaryOperator<List<Tool>> decorate,
            McpConfig.Parsed editorServers, Consumer<String> problems) throws IOException {
        Path dir = cwd.toAbsolutePath().normalize();
        SessionFile file = existing != null ? loadToWrite(existing)
                : SessionFile.create(sessionPaths == null ? null : sessionPaths.newFile(dir, scheduler.now()),
                        dir.toString(), null, scheduler::now);
        return withMcp(dir, file, decorate.apply(Tools.create(dir, toolNames, files)), decorate, editorServers,
                problems);
    }

    /** @param editorServers the editor's servers (ACP), or null for none */
    private AgentSession withMcp(Path cwd, SessionFile file, List<Tool> builtIn, UnaryOperator<List<Tool>> decorate,
            McpConfig.Parsed editorServers, Consumer<String> problems) {
        List<McpServerSpec> specs = new ArrayList<>(editorServers == null ? List.of() : editorServers.servers());
        Optional<JsonNode> configured = settings.current().node("mcpServers");
        if (configured.isPresent()) {
            McpConfig.Parsed fromSettings = McpConfig.fromSettings(configured.get(), cwd, env::get);
            fromSettings.warnings().forEach(warning -> {
                LOG.warn("{}", warning);
                problems.accept(warning);
            });
            Set<String> named = new HashSet<>();
            specs.forEach(spec -> named.add(spec.name()));
            fromSettings.servers().stream().filter(spec -> !named.contains(spec.name())).forEach(specs::add);
        }
        if (specs.isEmpty()) {
            return create(cwd, file, new ToolRegistry(builtIn));
        }
        McpServers servers = McpServers.start(specs, problems);
        AgentSession session = create(cwd, file, new ToolRegistry(builtIn, servers.decoratedBy(decorate)));
        session.attachToolServers(new AgentSession.ToolServers() {
            @Override
            public List<McpServerStatus> status() {
                return servers.status();
            }

            @Override
            public List<String> warnings() {
                return servers.warnings();
            }

            @Override
            public void close() {
                servers.close();
            }
        });
        return session;
    }

    /** A stored session to write here; refused when another process writes it or it is too large. */
    private SessionFile loadToWrite(Path existing) throws IOException {
        try {
            return SessionFile.load(existing, scheduler::now);
        } catch (SessionLockedException e) {
            throw new Refused(e.getMessage() + "; close it there first (one agentd process writes a session at a time)");
        } catch (SessionTooLargeException e) {
            throw new Refused(e.getMessage());
        }
    }

    @Override
    public List<Stored> stored(Path cwd) {
        if (sessionPaths == null) {
            return List.of();
        }
        List<SessionListing.Listed> listing = cwd == null ? SessionListing.of(sessionPaths.allDirectories())
                : SessionListing.of(sessionPaths.directoryFor(cwd.toAbsolutePath().normalize()));
        return listing.stream()
                .map(listed -> new Stored(listed.sessionId(), listed.summary().cwd(), listed.summary().file(),
                        SessionTitles.of(listed.summary().name(), listed.summary().firstMessage()),
                        listed.summary().modified().toString()))
                .toList();
    }

    @Override
    public Optional<String> setting(String path) {
        return settings.current().text(path);
    }

    @Override
    public List<String> settingsNotices() {
        return settings.untrustedWarnings();
    }
}
