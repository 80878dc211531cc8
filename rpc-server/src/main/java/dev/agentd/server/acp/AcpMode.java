package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.rpc.CommandLines;
import dev.agentd.server.rpc.ProtocolMode;
import dev.agentd.server.rpc.RpcOutput;
import dev.agentd.server.session.ModelControl;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --mode acp}: the Agent Client Protocol v1 (JSON-RPC 2.0, one message per line) for
 * editors, on agentd's own framing ({@link CommandLines}) and writer. Each {@code session/new}
 * opens an {@link AcpSession} with its own run thread; all share the process's services. The
 * reader answers quick methods before the next line and never waits for a run or for the client.
 */
public final class AcpMode implements ProtocolMode {
    private static final Logger LOG = LoggerFactory.getLogger(AcpMode.class);
    static final int PROTOCOL_VERSION = 1;

    private final InputStream in;
    private final AcpConnection connection;
    private final SessionOpener opener;
    private final int maxLineBytes;
    private final String version;
    private final Map<String, AcpSession> sessions = new ConcurrentHashMap<>();
    private volatile JsonNode clientCapabilities = NullNode.getInstance();

    public AcpMode(InputStream in, RpcOutput out, SessionOpener opener, int maxLineBytes, String version) {
        this.in = in;
        this.connection = new AcpConnection(out);
        this.opener = opener;
        this.maxLineBytes = maxLineBytes;
        this.version = version;
    }

    /** The daemon's own session is not used in ACP: its events (ready first) stay off the wire. */
    @Override
    public void emit(AgentEvent event) {}

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
            connection.closed();
            sessions.values().forEach(AcpSession::close);
            sessions.clear();
        }
    }

    private void handle(JsonNode node) {
        if (!node.isObject()) {
            // ACP has no batches: an array (or any non-object) is one invalid request.
            connection.error(NullNode.getInstance(), -32600, "Invalid request: expected a JSON-RPC object", null);
            return;
        }
        JsonNode id = node.get("id");
        JsonNode method = node.get("method");
        if (method == null && id != null) {
            connection.answered(node);
            return;
        }
        if (method == null || !method.isTextual()) {
            connection.error(id == null ? NullNode.getInstance() : id, -32600, "Invalid request: no method", null);
            return;
        }
        JsonNode params = node.path("params");
        try {
            call(method.textValue(), params, id);
        } catch (BadParams e) {
            if (id != null) {
                connection.error(id, -32602, "Invalid params: " + e.getMessage(), null);
            } else {
                LOG.warn("acp notification {} rejected: {}", method.textValue(), e.getMessage());
            }
        }
    }

    private void call(String method, JsonNode params, JsonNode id) {
        switch (method) {
            case "initialize" -> connection.result(id, initialize(params));
            case "session/new" -> newSession(params, id);
            case "session/prompt" -> session(params).prompt(id, params.path("prompt"));
            case "session/cancel" -> session(params).cancel();
            case "session/set_config_option" -> connection.result(id, setConfigOption(params));
            case "session/close" -> {
                AcpSession closed = session(params);
                sessions.remove(closed.id());
                closed.close();
                connection.result(id, AcpJson.object());
            }
            case "authenticate" -> connection.result(id, AcpJson.object());
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
        ObjectNode capabilities = result.putObject("agentCapabilities").put("loadSession", false);
        capabilities.putObject("promptCapabilities").put("image", true).put("audio", false)
                .put("embeddedContext", true);
        capabilities.putObject("sessionCapabilities").putObject("close");
        result.putObject("agentInfo").put("name", "agentd").put("title", "agentd").put("version", version);
        result.putArray("authMethods");
        return result;
    }

    private void newSession(JsonNode params, JsonNode id) {
        String cwdText = AcpJson.textOf(params, "cwd");
        if (cwdText == null || !Path.of(cwdText).isAbsolute()) {
            throw new BadParams("cwd must be an absolute path");
        }
        Path cwd = Path.of(cwdText).normalize();
        JsonNode fs = clientCapabilities.path("fs");
        boolean ask = !"allow".equals(opener.setting("acp.permissions").orElse("ask"));
        String[] sessionId = new String[1];
        EditorFiles files = new EditorFiles(connection, () -> sessionId[0], fs.path("readTextFile").asBoolean(false),
                fs.path("writeTextFile").asBoolean(false));
        EditorTools tools = new EditorTools(connection, () -> sessionId[0], cwd, ask);
        AcpSession session;
        try {
            session = new AcpSession(opener.open(cwd, null, files, tools::decorate), connection, cwd,
                    clientCapabilities.path("session").path("notices").isObject(), System::currentTimeMillis);
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("session/new failed: {}", e.getClass().getSimpleName());
            connection.error(id, -32603, "Internal error: cannot open a session (" + e.getClass().getSimpleName()
                    + ")", null);
            return;
        }
        sessionId[0] = session.id();
        sessions.put(session.id(), session);
        ObjectNode result = AcpJson.object().put("sessionId", session.id());
        result.set("configOptions", session.configOptions());
        connection.result(id, result);
        // After the answer, never before it: clients drop updates for a session they do not know yet.
        session.start();
        ObjectNode commands = AcpJson.update("available_commands_update");
        commands.putArray("availableCommands");
        session.update(commands);
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
            Model model = models.available().stream().filter(m -> m.selector().equals(value)).findFirst()
                    .orElseThrow(() -> new BadParams("unknown model '" + value + "'"));
            models.switchTo(model, null, ModelControl.Source.SET, false);
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
