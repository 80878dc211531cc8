package dev.agentd.server.testing;

import static org.awaitility.Awaitility.await;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.ProviderRegistry;
import dev.agentd.server.ai.faux.FauxModels;
import dev.agentd.server.ai.faux.FauxProvider;
import dev.agentd.server.ai.faux.FauxScript;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.auth.AuthStore;
import dev.agentd.server.auth.SecretResolver;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.fallback.FallbackLog;
import dev.agentd.server.fallback.control.FallbackServices;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.session.SessionContext;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.sessionfile.SessionPaths;
import dev.agentd.server.state.MemoryState;
import dev.agentd.server.state.SharedState;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * An in-process session on fake time with the faux provider (and any test providers), recording
 * every event. Settings live in a temporary agent directory, so persistence is real.
 */
public final class SessionHarness implements AutoCloseable {
    public final FakeScheduler scheduler = new FakeScheduler();
    /** The session's random source (jitter), seeded so runs repeat. */
    public final Random random = new Random(42);
    public final FauxScript script = new FauxScript();
    public final FauxProvider faux = new FauxProvider(script, scheduler, 0);
    public final SettingsStore settings;
    public final AuthStore auth;
    public final AgentSession session;
    /** The session's circuits and credential blocks, on the fake clock; a test may act as another session. */
    public final MemoryState state = new MemoryState(scheduler::now);
    private final List<AgentEvent> events = Collections.synchronizedList(new ArrayList<>());

    private SessionHarness(Builder builder) {
        this.settings = new SettingsStore(builder.dir.resolve("settings.json"),
                builder.dir.resolve("project-settings.json"));
        // Waits exactly as decided: a test on fake time advances by the announced delay. A test of
        // jitter itself sets retry.jitterRatio again (the process layer wins over the files).
        settings.setForProcess("retry.jitterRatio", com.fasterxml.jackson.databind.node.DoubleNode.valueOf(0));
        this.auth = new AuthStore(builder.credentials,
                new SecretResolver(Map.of(), scheduler, SecretResolver.COMMAND_LIMIT_MS), scheduler);
        List<Provider> providers = new ArrayList<>(builder.providers);
        providers.add(faux);
        List<Model> models = new ArrayList<>(builder.models);
        models.addAll(FauxModels.ALL);
        SessionPaths paths = builder.persistent ? new SessionPaths(builder.dir.resolve("sessions")) : null;
        SessionContext context = new SessionContext(new ModelRegistry(models), new ProviderRegistry(providers),
                auth, settings, scheduler, new ToolRegistry(builder.tools), () -> "system prompt", builder.dir,
                paths, random);
        SessionFile file = builder.sessionFile != null ? builder.sessionFile
                : SessionFile.create(paths == null ? null : paths.newFile(builder.dir, scheduler.now()),
                        builder.dir.toString(), null, scheduler::now);
        this.session = new AgentSession(context, file, builder.initialModel, ThinkingLevel.OFF, builder.updateMode,
                new FallbackServices(false, FallbackLog.NONE, builder.storeView.apply(state),
                        ProviderTimeouts.DEFAULTS::streamStartMs));
        session.subscribe(events::add);
    }

    public static SessionHarness create(Path dir) {
        return builder(dir).build();
    }

    public static Builder builder(Path dir) {
        return new Builder(dir);
    }

    public static final class Builder {
        private final Path dir;
        private final Map<String, List<String>> credentials = new HashMap<>();
        private final List<Provider> providers = new ArrayList<>();
        private final List<Model> models = new ArrayList<>();
        private final List<Tool> tools = new ArrayList<>();
        private Model initialModel = FauxModels.FAUX_1;
        private UpdateMode updateMode = UpdateMode.DELTA;
        private boolean persistent;
        private SessionFile sessionFile;
        private UnaryOperator<SharedState> storeView = UnaryOperator.identity();

        private Builder(Path dir) {
            this.dir = dir;
        }

        /** auth.json credentials (literal keys) for a provider. */
        public Builder credentials(String provider, String... keys) {
            credentials.put(provider, List.of(keys));
            return this;
        }

        /** A test provider and the models it serves; the first model becomes the initial one. */
        public Builder provider(Provider provider, Model... served) {
            providers.add(provider);
            models.addAll(List.of(served));
            if (served.length > 0) {
                initialModel = served[0];
            }
            return this;
        }

        public Builder tool(Tool tool) {
            tools.add(tool);
            return this;
        }

        /** Session files under {@code <dir>/sessions} instead of memory only. */
        public Builder persistent() {
            persistent = true;
            return this;
        }

        /** Continue this session file. */
        public Builder sessionFile(SessionFile file) {
            sessionFile = file;
            persistent = true;
            return this;
        }

        public Builder updateMode(UpdateMode mode) {
            updateMode = mode;
            return this;
        }

        /** The shared state as the session sees it: a wrapper around {@link #state} (hooks, a slow store). */
        public Builder storeView(UnaryOperator<SharedState> view) {
            storeView = view;
            return this;
        }

        public SessionHarness build() {
            return new SessionHarness(this);
        }
    }

    public void enqueue(FauxStep... steps) {
        script.enqueue(null, List.of(steps));
    }

    public List<AgentEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    public <T extends AgentEvent> List<T> events(Class<T> type) {
        return events().stream().filter(type::isInstance).map(type::cast).toList();
    }

    public List<String> types() {
        return events().stream().map(AgentEvent::type).toList();
    }

    /** Waits (real time, bounded) until an event matching {@code condition} was emitted. */
    public void awaitEvent(Predicate<AgentEvent> condition) {
        await().atMost(Duration.ofSeconds(10)).until(() -> events().stream().anyMatch(condition));
    }

    public <T extends AgentEvent> void awaitCount(Class<T> type, int count) {
        await().atMost(Duration.ofSeconds(10)).until(() -> events(type).size() >= count);
    }

    /** Runs a prompt to its end, letting every retry sleep elapse on the fake clock. */
    public void promptToEnd(String text) {
        CompletableFuture<Void> done = session.prompt(text);
        while (!done.isDone()) {
            Waits.await().until(() -> done.isDone() || !scheduler.pendingDelays().isEmpty());
            List<Long> pending = scheduler.pendingDelays();
            if (!pending.isEmpty()) {
                scheduler.advance(pending.get(0));
            }
        }
    }

    /** {@code provider/model} of every assistant reply so far: which model each request went to. */
    public List<String> replyModels() {
        List<String> models = new ArrayList<>();
        for (AgentEvent.MessageEnd end : events(AgentEvent.MessageEnd.class)) {
            if (end.message() instanceof AgentMessage.Assistant reply) {
                models.add(reply.provider() + "/" + reply.model());
            }
        }
        return models;
    }

    @Override
    public void close() {
        session.close();
    }
}
