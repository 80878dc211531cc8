package dev.agentd.server.cli;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlReader;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.acp.AcpMode;
import dev.agentd.server.ai.ModelAvailability;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.ProviderRegistry;
import dev.agentd.server.ai.catalog.Catalog;
import dev.agentd.server.ai.faux.FauxModels;
import dev.agentd.server.ai.faux.FauxProvider;
import dev.agentd.server.ai.faux.FauxScript;
import dev.agentd.server.ai.http.LazyHttpClient;
import dev.agentd.server.ai.wiring.HttpProviders;
import dev.agentd.server.auth.AuthStore;
import dev.agentd.server.auth.SecretResolver;
import dev.agentd.server.commands.SlashCommands;
import dev.agentd.server.config.ModelsConfig;
import dev.agentd.server.config.Settings;
import dev.agentd.server.config.SettingsStore;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.fallback.NdjsonFallbackLog;
import dev.agentd.server.fallback.control.FallbackServices;
import dev.agentd.server.rpc.CommandRouter;
import dev.agentd.server.rpc.PiDialect;
import dev.agentd.server.rpc.PiExtras;
import dev.agentd.server.runtime.OutputBackpressure;
import dev.agentd.server.runtime.SystemScheduler;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.sessionfile.SessionFile;
import dev.agentd.server.sessionfile.SessionPaths;
import dev.agentd.server.state.SharedState;
import dev.agentd.server.tools.ToolEnvironment;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.Tools;
import dev.agentd.server.wire.OutputWaits;
import dev.agentd.server.wire.ProtocolMode;
import dev.agentd.server.wire.RpcOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The impure wiring, in one place: reads the environment and files, builds the object graph (the
 * pi dialects' session only for them: {@link PiSession}), announces {@code ready} (pi dialects),
 * serves stdin until EOF or SIGTERM, and shuts down in order (abort the run, let the session
 * settle, exit 0).
 */
public final class Daemon {
    private static final Logger LOG = LoggerFactory.getLogger(Daemon.class);
    private static final long SHUTDOWN_GRACE_MS = 5_000;
    private static final long DEFAULT_FAUX_CHUNK_DELAY_MS = 15;

    private final CliOptions options;
    private final InputStream in;
    private final SystemScheduler scheduler;
    /** The pi dialects' session; null with {@code --mode acp}, whose editor opens the sessions. */
    private final PiSession pi;
    private final RpcOutput output;
    private final SharedState sharedState;
    private final AtomicBoolean shuttingDown = new AtomicBoolean();
    private final ShutdownSignals signals = new ShutdownSignals();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private List<String> warnings = List.of();
    private SessionFactory sessions;
    private SlashCommands slashCommands = SlashCommands.none();

    /**
     * @param out stdout: the daemon's one writer takes it, off the writing thread (often the run
     *     thread, and shutdown waits for the run to stop), and shuts the daemon down when it closes
     */
    private Daemon(CliOptions options, InputStream in, SystemScheduler scheduler, PiSession pi, OutputStream out,
            OutputWaits waits, SharedState sharedState) {
        this.options = options;
        this.sharedState = sharedState;
        this.in = in;
        this.scheduler = scheduler;
        this.pi = pi;
        this.output = RpcOutput.queued(out, Json::mapper, RpcOutput.DEFAULT_CAPACITY,
                () -> {
                    if (signals.onEnd() == ShutdownSignals.Action.START) {
                        shutdownInBackground("agentd-stdout-closed");
                    }
                }, waits);
    }

    /** Builds everything from the command line, the environment and the agent directory. */
    public static Daemon start(CliOptions options, InputStream in, OutputStream out)
            throws CliOptions.UsageException, IOException {
        Map<String, String> env = System.getenv();
        Path cwd = Path.of("").toAbsolutePath();
        AgentDirs dirs = AgentDirs.resolve(env, cwd);
        SettingsStore settings = new SettingsStore(dirs.globalSettings(), dirs.projectSettings());
        SystemScheduler scheduler = new SystemScheduler();
        SecretResolver secrets = new SecretResolver(env, scheduler, SecretResolver.COMMAND_LIMIT_MS);
        AuthStore auth = AuthStore.load(dirs.authFile(), secrets, scheduler);
        // One shared state per agent directory, for every session of the process (FALLBACK §6).
        SharedState sharedState = StateStores.open(settings.current(), dirs.agentDir(), env, scheduler);
        auth.shareBlocks(sharedState.credentialBlocks());
        ModelsConfig modelsConfig = ModelsConfig.load(dirs.modelsFile());
        modelsConfig.apiKeySpecs().forEach(auth::setModelsJsonKey);
        // The catalog's provider names come from its lines' first bytes: no model is parsed here.
        Catalog builtin = Catalog.builtin();
        modelsConfig.keylessProviders(Set.copyOf(builtin.providers())).forEach(auth::setKeyless);
        // A cloud's credential is ambient: evident from the environment (AuthStore.hasCredential), or
        // configured by naming the provider in models.json.
        modelsConfig.providers().stream().map(ModelsConfig.CustomProvider::name).filter(AuthStore::isAmbient)
                .forEach(auth::setKeyless);
        StartupWarnings warnings = new StartupWarnings();
        warnings.addAll(settings.warnings());
        warnings.addAll(auth.warnings());
        warnings.addAll(modelsConfig.warnings());
        ToolEnvironment.alsoStrip(modelsConfig.apiKeySpecs().values());
        modelsConfig.providers().forEach(provider -> ToolEnvironment.alsoStrip(provider.headerSpecs().values()));
        StartupTrace.mark("config");

        FauxScript script = new FauxScript();
        if (options.fauxScript() != null) {
            List<FauxStep> steps;
            try {
                steps = FauxScript.parse(options.fauxScript());
            } catch (IOException e) {
                throw new CliOptions.UsageException("cannot read --faux-script " + options.fauxScript() + ": "
                        + e.getMessage());
            }
            script.enqueue(null, steps);
        }
        long chunkDelay = parseLong(env.get("AGENTD_FAUX_CHUNK_DELAY_MS"), DEFAULT_FAUX_CHUNK_DELAY_MS);
        FauxProvider faux = new FauxProvider(script, scheduler, chunkDelay);

        // Built-in and custom models first: without --model the default of the first provider with a
        // credential is chosen. The built-in part is parsed provider by provider, when asked for.
        List<Model> custom = new ArrayList<>(modelsConfig.models());
        custom.addAll(FauxModels.ALL);
        SecretInventory.register(env, settings.current(), auth, secrets, modelsConfig, custom);
        ModelRegistry models = ModelRegistry.withCatalog(builtin, modelsConfig::adjust, custom,
                modelsConfig.headers(secrets::resolve)).listingEmbedded(asksForEmbedded(options));
        // Time the run thread waits for the client to read stdout is not provider silence (N3).
        OutputBackpressure backpressure = new OutputBackpressure(scheduler::monotonicMs);
        List<Provider> all = new ArrayList<>(HttpProviders.create(new LazyHttpClient(), scheduler,
                () -> ProviderSettings.timeouts(settings.current()),
                () -> ProviderSettings.maxReplyBytes(settings.current()), backpressure));
        all.add(faux);
        ProviderRegistry providers = new ProviderRegistry(all);
        StartupTrace.mark("models");
        List<Tool> tools;
        List<String> toolNames = options.tools() != null ? options.tools() : Tools.DEFAULT;
        try {
            tools = Tools.create(cwd, toolNames);
        } catch (IllegalArgumentException e) {
            throw new CliOptions.UsageException("--tools: " + e.getMessage());
        }
        SessionPaths sessionPaths = options.noSession() ? null
                : options.sessionDir() != null ? SessionPaths.flat(options.sessionDir().toAbsolutePath())
                : new SessionPaths(dirs.sessionsDir());
        boolean acp = options.mode().equals("acp");
        if (acp && (options.continueSession() || options.sessionFile() != null)) {
            LOG.warn("--continue and --session choose the rpc dialects' session; in acp mode the editor opens "
                    + "sessions (session/load, session/resume)");
        }
        SessionFile sessionFile = acp ? null : PiSession.openFile(options, sessionPaths, cwd, scheduler, warnings);
        StartupTrace.mark("tools+session-file");

        ModelRegistry.Selection selection = chooseModel(options, models, providers, auth, settings.current(),
                modelsConfig.warnings(), warnings);
        warnings.addAll(settings.warnings()); // now with the value warnings of the model choice
        warnings.afterChoice(selection.model(), options.model() != null || options.provider() != null);
        options.apiKeyValue().ifPresent(key -> auth.setCliKey(selection.model().provider(), key));
        ThinkingLevel thinking = selection.thinkingLevel();
        if (options.thinking() != null) {
            thinking = ThinkingLevel.parse(options.thinking()).orElseThrow(() -> new CliOptions.UsageException(
                    "--thinking must be one of off, minimal, low, medium, high, xhigh, max; got '" + options.thinking()
                            + "'"));
        }
        FallbackServices fallback = fallbackServices(options, env, dirs, settings, models, sharedState);
        SessionFactory sessions = new SessionFactory(models, providers, auth, settings, scheduler, toolNames,
                sessionPaths, fallback, selection.model(), thinking, options.updates(), env);
        SlashCommands slashCommands = new SlashCommands(dirs.agentDir(), dirs.projectDir());
        PiSession pi = null;
        if (!acp) {
            AgentSession session = sessions.create(cwd, sessionFile, tools);
            pi = new PiSession(session, new CommandRouter(session, script, new PiExtras(slashCommands, cwd)));
        }
        StartupTrace.mark("session+router");
        Daemon daemon = new Daemon(options, in, scheduler, pi, out,
                new OutputWaits(backpressure::waiting, backpressure::resumed), sharedState);
        daemon.sessions = sessions;
        daemon.slashCommands = slashCommands;
        daemon.warnings = warnings.list();
        if (pi != null) {
            pi.reportStartupWarnings(daemon.warnings);
        }
        return daemon;
    }

    /**
     * Model fallback for this process (FALLBACK §1, §7): {@code --no-model-fallback} or
     * {@code AGENTD_NO_FALLBACK=1} disable switching for the run; the debug log goes to
     * {@code <agentDir>/logs/fallback.log}; every settings or chain warning is reported once now, on
     * stderr and as a {@code validation_warning} record.
     */
    private static FallbackServices fallbackServices(CliOptions options, Map<String, String> env, AgentDirs dirs,
            SettingsStore settings, ModelRegistry models, SharedState sharedState) {
        boolean disabled = FallbackSettings.disabledByRun(options.noModelFallback(), env);
        long maxBytes = FallbackSettings.from(settings.current(), disabled).logMaxBytes();
        FallbackServices services = new FallbackServices(disabled,
                new NdjsonFallbackLog(dirs.agentDir(), maxBytes, Clock.systemUTC()), sharedState,
                // A probe that never answers is given up after the stream-start timeout; so is its lease.
                () -> ProviderSettings.timeouts(settings.current()).streamStartMs());
        for (String warning : services.warnings(settings.current(), models)) {
            LOG.warn("fallback: {}", warning);
            services.log().warn("validation_warning", Map.of("warning", warning));
        }
        return services;
    }

    /** Serves until stdin ends or SIGTERM arrives; returns the exit code. */
    public int serve() {
        signals.install(() -> shutdownInBackground("agentd-signal"), Daemon::exitNow);
        ProtocolMode mode = protocolMode();
        StartupTrace.mark("ready");
        CodecWarmup.start(); // after ready: the first get_state answer needs no mapper
        Thread reader = new Thread(() -> {
            try {
                mode.serve();
            } catch (Throwable e) { // serve() answers every line itself; whatever escapes still ends us cleanly
                LOG.error("the stdin reader failed: {}", e.getClass().getName());
            } finally {
                if (signals.onEnd() == ShutdownSignals.Action.START) {
                    shutdown();
                }
            }
        }, "agentd-stdin");
        reader.setDaemon(true);
        reader.start();
        StartupTrace.report();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Records still queued for stdout (the last agent_end, responses) go out before exit.
        if (!output.drain(SHUTDOWN_GRACE_MS)) {
            LOG.warn("stdout did not take the last records within {} ms; exiting anyway", SHUTDOWN_GRACE_MS);
        }
        return 0;
    }

    /** The dialect chosen with {@code --mode}; a pi dialect has announced {@code ready} when this returns. */
    private ProtocolMode protocolMode() {
        if (pi == null) {
            return new AcpMode(in, output, sessions, scheduler, JsonlReader.DEFAULT_MAX_LINE_BYTES,
                    Version.current(), slashCommands);
        }
        PiDialect dialect = pi.dialect(options.mode(), in, output);
        pi.announce(dialect, options.mode(), warnings);
        return dialect;
    }

    /** Aborts the pi session's run, waits for it to settle (bounded), and releases {@link #serve()}. */
    private void shutdown() {
        if (!shuttingDown.compareAndSet(false, true)) {
            return;
        }
        if (pi != null) {
            pi.stop(SHUTDOWN_GRACE_MS);
        }
        sharedState.close();
        scheduler.close();
        stopped.countDown();
    }

    /** {@link #shutdown()} on a thread of its own, for callers that the shutdown may wait for. */
    private void shutdownInBackground(String threadName) {
        Thread stopper = new Thread(this::shutdown, threadName);
        stopper.setDaemon(true);
        stopper.start();
    }

    /** A second signal: exit now, on a thread of its own (the shutdown hooks still kill child processes). */
    private static void exitNow(int code) {
        Thread exit = new Thread(() -> System.exit(code), "agentd-exit");
        exit.setDaemon(true);
        exit.start();
    }

    /** The faux models were asked for by name: {@code --model faux/…}, {@code --provider faux} or {@code --faux-script}. */
    static boolean asksForEmbedded(CliOptions options) {
        String provider = FauxModels.FAUX_1.provider();
        return options.fauxScript() != null || provider.equals(options.provider())
                || (options.model() != null && options.model().startsWith(provider + "/"));
    }

    /**
     * SPEC §2: {@code --model} (with {@code --provider}), else settings defaultProvider/defaultModel,
     * else the first model whose provider has a credential, else faux/faux-1.
     */
    static ModelRegistry.Selection chooseModel(CliOptions options, ModelRegistry models, ProviderRegistry providers,
            AuthStore auth, Settings settings, List<String> modelsJsonWarnings, StartupWarnings warnings)
            throws CliOptions.UsageException {
        if (options.model() != null) {
            String spec = options.provider() != null && !options.model().contains("/")
                    ? options.provider() + "/" + options.model() : options.model();
            return models.resolve(spec).orElseThrow(() -> new CliOptions.UsageException(
                    StartupWarnings.unknownModel(spec, models, modelsJsonWarnings)));
        }
        if (options.provider() != null) {
            return models.ofProvider(options.provider()).stream().findFirst()
                    .map(model -> new ModelRegistry.Selection(model, null))
                    .orElseThrow(() -> new CliOptions.UsageException("unknown provider '" + options.provider() + "'"));
        }
        Optional<String> defaultProvider = settings.text("defaultProvider");
        Optional<String> defaultModel = settings.text("defaultModel");
        if (defaultProvider.isPresent() && defaultModel.isPresent()) {
            Optional<Model> configured = models.find(defaultProvider.get(), defaultModel.get());
            if (configured.isPresent()) {
                return new ModelRegistry.Selection(configured.get(), null);
            }
            String warning = "settings: default model " + defaultProvider.get() + "/" + defaultModel.get()
                    + " is unknown; ignoring it";
            LOG.warn(warning);
            warnings.add(warning);

        }
        ModelAvailability availability = new ModelAvailability(models, providers, auth::hasCredential,
                auth::missingKeyMessage);
        // Provider by provider, skipping those without a credential before their models are parsed
        // (a model picked here needs one); within a provider its default comes first.
        for (String provider : models.providers()) {
            if (!auth.hasCredential(provider)) {
                continue;
            }
            for (Model model : models.ofProvider(provider)) {
                if (availability.needsCredential(model) && availability.usable(model)) {
                    return new ModelRegistry.Selection(model, null);
                }
            }
        }
        LOG.info("no credential found; using the embedded faux model {}", FauxModels.FAUX_1.selector());
        return new ModelRegistry.Selection(FauxModels.FAUX_1, null);
    }

    private static long parseLong(String text, long fallback) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Math.max(0, Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
