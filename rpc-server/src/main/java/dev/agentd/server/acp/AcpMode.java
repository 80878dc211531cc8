package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.commands.SlashCommands;
import dev.agentd.server.mcp.McpConfig;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.session.ModelControl;
import dev.agentd.server.wire.CommandLines;
import dev.agentd.server.wire.JsonRpcEnvelope;
import dev.agentd.server.wire.ProtocolMode;
import dev.agentd.server.wire.RpcOutput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --mode acp}: the Agent Client Protocol v1 (JSON-RPC 2.0, one message per line) for
 * editors, on agentd's own framing ({@link CommandLines}) and writer. Each {@code session/new}
 * opens an {@link AcpSession} with its own run thread; all share the process's services. The
 * reader answers quick methods before the next line and never waits for a run, for the client or
 * for the disk: stored sessions are listed and loaded by {@link StoredSessions} on a worker.
 */
public final class AcpMode implements ProtocolMode {
    private static final Logger LOG = LoggerFactory.getLogger(AcpMode.class);
    static final int PROTOCOL_VERSION = 1;
    private static final long CLOSE_GRACE_MS = 5_000;
    /** The methods answered here; positional params for any other are "method not found". */
    private static final Set<String> METHODS = Set.of("initialize", "authenticate", "session/new", "session/load",
            "session/resume", "session/list", "session/prompt", "session/cancel", "session/set_config_option",
            "session/set_model", "session/close", "session/fork");

    private final InputStream in;
    private final SlashCommands commands;
    private final AcpConnection connection;
    private final SessionOpener opener;
    /** The wall clock of {@code nextRetryAt} and {@code retryAt}: the daemon's scheduler, the one reader of clocks. */
    private final Scheduler clock;
    private final int maxLineBytes;
    private final String version;
    private final Map<String, AcpSession> sessions = new ConcurrentHashMap<>();
    private final StoredSessions stored;
    /** The connection ended: a load finishing now closes what it opened. */
    private volatile boolean ended;
    private volatile JsonNode clientCapabilities = NullNode.getInstance();

    public AcpMode(InputStream in, RpcOutput out, SessionOpener opener, Scheduler clock, int maxLineBytes,
            String version) {
        this(in, out, opener, clock, maxLineBytes, version, SlashCommands.none());
    }

    /** @param commands the prompt templates and skills offered as slash commands and expanded in prompts */
    public AcpMode(InputStream in, RpcOutput out, SessionOpener opener, Scheduler clock, int maxLineBytes,
            String version, SlashCommands commands) {
        this.commands = commands;
        this.in = in;
        this.connection = new AcpConnection(out);
        this.opener = opener;
        this.clock = clock;
        this.maxLineBytes = maxLineBytes;
        this.version = version;
        this.stored = new StoredSessions(opener, connection, new StoredSessions.Host() {
            @Override
            public AcpSession live(String sessionId) {
                return sessions.get(sessionId);
            }

            @Override
            public AcpSession open(JsonNode params, SessionOpener.Stored file) {
                return AcpMode.this.open(params, file).session;
            }

            @Override
            public void started(AcpSession session) {
                AcpMode.this.started(session);
            }
        });
    }

    @Override
    public void serve() {
        try {
            CommandLines.read(in, maxLineBytes, new CommandLines.Handler() {
                @Override
                public void invalid(String problem, byte[] bytes) {
                    connection.error(NullNode.getInstance(), -32700, "Parse error: " + problem, null);
                }

                @Override
                public void json(JsonNode node) {
                    handle(node);
                }

                @Override
                public void failed(Throwable error, byte[] bytes, JsonNode node) {
                    JsonNode id = node != null && node.isObject() ? node.path("id") : NullNode.getInstance();
                    connection.error(id.isTextual() || id.isNumber() ? id : NullNode.getInstance(), -32603,
                            "Internal error: " + error.getClass().getSimpleName(), null);
                }
            });
        } finally {
            ended = true;
            connection.closed();
            stored.close(CLOSE_GRACE_MS);
            // Bounded: the daemon's shutdown follows, and a stuck run must not keep the process alive.
            CompletableFuture<?>[] closing = sessions.values().stream().map(AcpSession::close)
                    .toArray(CompletableFuture[]::new);
            sessions.clear();
            try {
                CompletableFuture.allOf(closing).get(CLOSE_GRACE_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                LOG.warn("acp: not every session stopped within {} ms", CLOSE_GRACE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void handle(JsonNode node) {
        if (node.isObject() && node.get("method") == null && node.get("id") != null) {
            connection.answered(node); // the client's answer to one of agentd's requests
            return;
        }
        // The JSON-RPC dialect's check (A13): "jsonrpc":"2.0", a string, number or null id, named
        // params. ACP has no batches: an array is one invalid request.
        JsonRpcEnvelope.Result checked = JsonRpcEnvelope.check(node, METHODS::contains);
        if (checked instanceof JsonRpcEnvelope.Rejected rejected) {
            if (rejected.id() != null) {
                connection.error(rejected.id(), rejected.error().code(), rejected.error().message(), null);
            }
            return;
        }
        JsonRpcEnvelope.Call request = (JsonRpcEnvelope.Call) checked;
        JsonNode id = request.id();
        JsonNode params = request.params();
        String method = request.method();
        try {
            call(method, params, id);
        } catch (RequestFailed e) {
            if (id != null) {
                connection.error(id, e.code, e.getMessage(), null);
            }
        } catch (BadParams e) {
            if (id != null) {
                connection.error(id, -32602, "Invalid params: " + e.getMessage(), null);
            } else {
                LOG.warn("acp notification {} rejected: {}", method, e.getMessage());
            }
        }
    }

    private void call(String method, JsonNode params, JsonNode id) {
        switch (method) {
            case "initialize" -> connection.result(id, initialize(params));
            case "session/new" -> {
                Opened opened = open(params, null);
                connection.result(id, opened.result);
                started(opened.session);
            }
            case "session/load" -> stored.load(AcpJson.textOf(params, "sessionId"), cwd(params), params, id, true);
            case "session/resume" -> stored.load(AcpJson.textOf(params, "sessionId"), cwd(params), params, id, false);
            case "session/fork" -> { // unstable ACP: a copy of a live session's history, a new id
                cwd(params);
                stored.fork(AcpJson.textOf(params, "sessionId"), params, id);
            }
            // without a cwd: every session, as ACP asks (agentd's own directory was listed before: A7)
            case "session/list" -> stored.list(AcpJson.textOf(params, "cwd") == null ? null : cwd(params), id);
            case "session/prompt" -> session(params).prompt(id, params.path("prompt"));
            case "session/cancel" -> {
                session(params).cancel();
                if (id != null) { // a notification in ACP; a client that sends an id still gets its answer
                    connection.result(id, AcpJson.object());
                }
            }
            case "session/set_config_option" -> connection.result(id, setConfigOption(params));
            // Before config options, ACP had a model selector (OpenHands and older Zed still call it).
            case "session/set_model" -> {
                AcpSession session = session(params);
                selectModel(session, AcpJson.textOf(params, "modelId"));
                connection.result(id, AcpJson.object());
            }
            // agentd has no modes to advertise (its permission policy is the user's setting, not the
            // editor's to lower): a client only calls this with a mode it was offered.
            case "session/set_mode" -> {
                if (id != null) {
                    connection.error(id, -32601, "Method not found: session/set_mode (agentd offers no session "
                            + "modes; the model and thinking level are config options)", null);
                }
            }
            case "session/close" -> {
                AcpSession closed = session(params);
                sessions.remove(closed.id());
                closed.close();
                connection.result(id, AcpJson.object());
            }
            case "authenticate" -> {
                String refusal = AuthMethods.refusal(params);
                if (refusal != null) {
                    throw new BadParams(refusal);
                }
                connection.result(id, AcpJson.object());
            }
            default -> {
                if (id != null) {
                    connection.error(id, -32601, "Method not found: " + method, null);
                }
            }
        }
    }

    private ObjectNode initialize(JsonNode params) {
        clientCapabilities = params.path("clientCapabilities");
        ObjectNode result = AcpJson.object().put("protocolVersion", PROTOCOL_VERSION);
        ObjectNode capabilities = result.putObject("agentCapabilities").put("loadSession", true);
        capabilities.putObject("promptCapabilities").put("image", true).put("audio", false)
                .put("embeddedContext", true);
        ObjectNode sessionCapabilities = capabilities.putObject("sessionCapabilities");
        sessionCapabilities.putObject("list");
        sessionCapabilities.putObject("resume");
        sessionCapabilities.putObject("close");
        sessionCapabilities.putObject("fork"); // unstable schema's SessionForkCapabilities
        // stdio servers are always accepted (ACP requires it); http and sse through the MCP SDK.
        capabilities.putObject("mcpCapabilities").put("http", true).put("sse", true);
        result.putObject("agentInfo").put("name", "agentd").put("title", "agentd").put("version", version);
        result.set("authMethods", AuthMethods.advertised());
        return result;
    }

    /** An opened session and the answer for it (sessionId for a new one, and the config options). */
    private record Opened(AcpSession session, ObjectNode result) {}

    /**
     * {@code session/new} (stored null) or the session of {@code stored}. Its events are forwarded
     * from here on: the caller writes the answer (and, for a load, the history) before the first.
     */
    private Opened open(JsonNode params, SessionOpener.Stored stored) {
        Path cwd = cwd(params);
        JsonNode fs = clientCapabilities.path("fs");
        AcpSession.Editor editor = new AcpSession.Editor(fs.path("readTextFile").asBoolean(false),
                fs.path("writeTextFile").asBoolean(false), clientCapabilities.path("terminal").asBoolean(false),
                !"allow".equals(opener.setting("acp.permissions").orElse("ask")));
        Path file = stored == null ? null : stored.file();
        AcpSession session;
        try {
            McpConfig.Parsed mcp = McpConfig.fromAcp(params.get("mcpServers"), cwd);
            session = new AcpSession((files, decorate, problems) -> {
                mcp.warnings().forEach(problems);
                return opener.open(cwd, file, files, decorate, mcp, problems);
            }, editor, connection,
                    cwd, clientCapabilities.path("session").path("notices").isObject(),
                    clientCapabilities.path("session").path("compaction").isObject(), clock::now, commands,
                    stored == null ? null : stored.sessionId());
        } catch (SessionOpener.Refused e) {
            throw new RequestFailed(-32000, e.getMessage());
        } catch (IOException | RuntimeException e) {
            LOG.warn("opening a session failed: {}", e.getClass().getSimpleName());
            throw new RequestFailed(-32603, "Internal error: cannot open the session (" + e.getClass().getSimpleName() + ")");
        }
        if (ended) { // the connection ended while a load was reading: nobody will use it
            session.close();
            throw new RequestFailed(-32603, "Internal error: the connection is closing");
        }
        sessions.put(session.id(), session);
        ObjectNode result = AcpJson.object();
        if (stored == null) {
            result.put("sessionId", session.id());
        }
        result.set("configOptions", session.configOptions());
        return new Opened(session, result);
    }

    /** The answer first, then the updates: clients drop updates for a session they do not know yet. */
    private void started(AcpSession session) {
        session.start();
        session.commandsChanged(); // the first list; sent again when templates change (AvailableCommands)
        // Settings a project may not set until trusted (SPEC §2): the editor shows stdout, not stderr.
        boolean notices = clientCapabilities.path("session").path("notices").isObject();
        for (String warning : opener.settingsNotices()) {
            session.update(UpdateMapper.notice("warning", warning,
                    AcpJson.object().put("agentd/untrustedSettings", true), notices));
        }
    }

    private static Path cwd(JsonNode params) {
        String cwdText = AcpJson.textOf(params, "cwd");
        if (cwdText == null || !Path.of(cwdText).isAbsolute()) {
            throw new BadParams("cwd must be an absolute path");
        }
        return Path.of(cwdText).normalize();
    }

    private ObjectNode setConfigOption(JsonNode params) {
        AcpSession session = session(params);
        String configId = AcpJson.textOf(params, "configId");
        String value = AcpJson.textOf(params, "value");
        if (value == null) {
            throw new BadParams("value must be a string");
        }
        ModelControl models = session.agent().models();
        if (ConfigOptions.MODEL.equals(configId)) {
            selectModel(session, value);
        } else if (ConfigOptions.THOUGHT_LEVEL.equals(configId)) {
            Optional<ThinkingLevel> level = ThinkingLevel.parse(value);
            models.setThinkingLevel(level.orElseThrow(() -> new BadParams("unknown thinking level '" + value + "'")));
        } else {
            throw new BadParams("unknown configId '" + configId + "'");
        }
        ObjectNode result = AcpJson.object();
        result.set("configOptions", session.configOptions());
        return result;
    }

    /** The model option's value (a {@code provider/id} selector) becomes the session's model. */
    private static void selectModel(AcpSession session, String selector) {
        if (selector == null) {
            throw new BadParams("modelId must be a string");
        }
        ModelControl models = session.agent().models();
        Model model = models.available().stream().filter(m -> m.selector().equals(selector)).findFirst()
                .orElseThrow(() -> new BadParams("unknown model '" + selector + "'"));
        models.switchTo(model, null, ModelControl.Source.SET, false);
    }

    private AcpSession session(JsonNode params) {
        String sessionId = AcpJson.textOf(params, "sessionId");
        AcpSession session = sessionId == null ? null : sessions.get(sessionId);
        if (session == null) {
            throw new BadParams("unknown sessionId '" + sessionId + "'");
        }
        return session;
    }

    /** A request whose params do not fit: answered with -32602. */
    private static final class BadParams extends RuntimeException {
        BadParams(String message) {
            super(message, null, false, false);
        }
    }
}
