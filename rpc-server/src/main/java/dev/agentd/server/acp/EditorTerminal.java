package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code bash} in the editor's terminal (issue 16 §5), when the client offers {@code terminal}:
 * {@code terminal/create} runs {@code bash -c <command>} in the session's directory, then
 * {@code terminal/wait_for_exit}, {@code terminal/output} and {@code terminal/release}. A cancelled
 * run (or the call's {@code timeout}) sends {@code terminal/kill} first. The result reads like the
 * local bash tool's: the output, then "Command exited with code N" when it failed. The tool's
 * definition (name, description, parameters) stays the local tool's, so the model sees no change.
 * The terminal is embedded in the call's card right after it is created (A6/Z6: a
 * {@code tool_call_update} whose content is {@code {type:"terminal", terminalId}}), so the editor
 * streams its output live; the result's details name it ({@link #TERMINAL_ID}) so the card's final
 * update keeps it in front of the text.
 */
final class EditorTerminal implements Tool {
    /** What the editor keeps of the output (it truncates from the start); the local tool's limit. */
    static final long OUTPUT_BYTE_LIMIT = 50 * 1024;
    /** The result details' key naming the editor's terminal the command ran in. */
    static final String TERMINAL_ID = "terminalId";

    private final Tool local;
    private final AcpConnection connection;
    private final Supplier<String> sessionId;
    private final Path cwd;

    EditorTerminal(Tool local, AcpConnection connection, Supplier<String> sessionId, Path cwd) {
        this.local = local;
        this.connection = connection;
        this.sessionId = sessionId;
        this.cwd = cwd;
    }

    @Override
    public ToolDefinition definition() {
        return local.definition();
    }

    @Override
    public Optional<String> writeTarget(JsonNode arguments) {
        return local.writeTarget(arguments);
    }

    @Override
    public ToolResult execute(String toolCallId, JsonNode arguments, CancellationToken cancel,
            Consumer<ToolOutput> onUpdate) throws Exception {
        JsonNode command = arguments.path("command");
        if (!command.isTextual() || command.asText().isBlank()) {
            return ToolResult.error("Invalid arguments for bash: 'command' must be a non-empty string");
        }
        ObjectNode create = params().put("command", "bash").put("cwd", cwd.toString())
                .put("outputByteLimit", OUTPUT_BYTE_LIMIT);
        create.putArray("args").add("-c").add(command.asText());
        create.putArray("env");
        String terminalId = connection.call("terminal/create", create, cancel).path("terminalId").asText(null);
        if (terminalId == null) {
            return ToolResult.error("The editor did not create a terminal for the command");
        }
        try {
            connection.notify("session/update", embed(sessionId.get(), toolCallId, terminalId));
            JsonNode exit = waitForExit(terminalId, arguments.path("timeout").asDouble(0), cancel);
            JsonNode output = connection.call("terminal/output", params().put("terminalId", terminalId),
                    new CancellationToken());
            ToolResult result = result(output.path("output").asText(""), output.path("truncated").asBoolean(false),
                    exit, cancel.isCancelled());
            return new ToolResult(result.content(), AcpJson.object().put(TERMINAL_ID, terminalId), result.isError());
        } finally {
            connection.request("terminal/release", params().put("terminalId", terminalId));
        }
    }

    /** The exit status; null when the run was cancelled or timed out (the command was killed). */
    private JsonNode waitForExit(String terminalId, double timeoutSeconds, CancellationToken cancel) throws Exception {
        var exit = connection.request("terminal/wait_for_exit", params().put("terminalId", terminalId));
        Runnable unregister = cancel.onCancel(() -> exit.cancel(false));
        try {
            return timeoutSeconds > 0 ? exit.get(Math.round(timeoutSeconds * 1000), TimeUnit.MILLISECONDS)
                    : exit.get();
        } catch (TimeoutException | CancellationException e) {
            kill(terminalId);
            return null;
        } catch (InterruptedException e) {
            kill(terminalId);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            unregister.run();
        }
    }

    /** The {@code session/update} that shows the terminal in the call's card while the command runs. */
    static ObjectNode embed(String sessionId, String toolCallId, String terminalId) {
        ObjectNode update = AcpJson.update("tool_call_update").put("toolCallId", toolCallId);
        update.putArray("content").add(terminal(terminalId));
        ObjectNode params = AcpJson.object().put("sessionId", sessionId);
        params.set("update", update);
        return params;
    }

    /** ACP's terminal tool-call content. */
    static ObjectNode terminal(String terminalId) {
        return AcpJson.object().put("type", "terminal").put("terminalId", terminalId);
    }

    private void kill(String terminalId) {
        connection.request("terminal/kill", params().put("terminalId", terminalId));
    }

    private ObjectNode params() {
        return AcpJson.object().put("sessionId", sessionId.get());
    }

    /** The local tool's wording, so the model reads the same result whichever runs the command. */
    static ToolResult result(String output, boolean truncated, JsonNode exit, boolean cancelled) {
        StringBuilder text = new StringBuilder(output);
        if (truncated) {
            text.append(text.length() == 0 ? "" : "\n\n").append("[Output truncated by the editor to the last ")
                    .append(OUTPUT_BYTE_LIMIT / 1024).append(" KB.]");
        }
        String failure = null;
        if (exit == null) {
            failure = cancelled ? "Command aborted" : "Command timed out";
        } else if (exit.hasNonNull("signal")) {
            failure = "Command killed by signal " + exit.path("signal").asText();
        } else if (exit.path("exitCode").asInt(0) != 0) {
            failure = "Command exited with code " + exit.path("exitCode").asInt();
        }
        if (failure != null) {
            text.append(text.length() == 0 ? "" : "\n\n").append(failure);
        } else if (text.length() == 0) {
            text.append("(no output)");
        }
        return new ToolResult(List.of(new ContentBlock.Text(text.toString())), null, failure != null);
    }
}
