package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.mcp.McpNames;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The built-in tools asking first (issue 16 §5), as decorators rather than forks: before a write,
 * edit or bash call the user is asked ({@code session/request_permission}, unless the setting
 * {@code acp.permissions} is {@code "allow"}; "allow always" is remembered per tool for the
 * session, but a target outside the project asks every time). The request shows the file a path
 * really names, with a note when a symbolic link leads elsewhere or out of the project
 * ({@link ToolTarget}). The wait runs on the tool's thread. The files themselves go through
 * {@code EditorFiles}; bash is first handed to {@code bash}, which puts it in the editor's terminal
 * ({@code EditorTerminal}) when the client offers one: the session's wiring builds both, so this
 * class and those it decorates know nothing of each other.
 */
final class EditorTools {
    private static final Set<String> ASK_FIRST = Set.of("write", "edit", "bash");

    private final AcpConnection connection;
    private final Supplier<String> sessionId;
    private final Path cwd;
    private final boolean ask;
    private final UnaryOperator<Tool> bash;
    private final Set<String> alwaysAllowed = ConcurrentHashMap.newKeySet();

    /** @param bash what the local bash tool becomes (the editor's terminal, or itself) before permission wraps it */
    EditorTools(AcpConnection connection, Supplier<String> sessionId, Path cwd, boolean ask,
            UnaryOperator<Tool> bash) {
        this.bash = bash;
        this.connection = connection;
        this.sessionId = sessionId;
        this.cwd = cwd;
        this.ask = ask;
    }

    /**
     * Whether calls of {@code toolName} ask first: their {@code in_progress} is sent here once the
     * user allowed them, so the card stays {@code pending} while the user decides (A11).
     */
    boolean asksFirst(String toolName) {
        // An MCP server's tool asks like bash: its annotations (readOnlyHint) are the server's word, not ours.
        return ask && (ASK_FIRST.contains(toolName) || McpNames.isMcp(toolName));
    }

    List<Tool> decorate(List<Tool> tools) {
        List<Tool> decorated = new ArrayList<>();
        for (Tool tool : tools) {
            if (tool.name().equals("bash")) {
                tool = bash.apply(tool);
            }
            decorated.add(asksFirst(tool.name()) ? new AskFirst(tool) : tool);
        }
        return decorated;
    }

    /** The user's yes or no before the call runs. */
    private final class AskFirst implements Tool {
        private final Tool delegate;

        AskFirst(Tool delegate) {
            this.delegate = delegate;
        }

        @Override
        public ToolDefinition definition() {
            return delegate.definition();
        }

        @Override
        public Optional<String> writeTarget(JsonNode arguments) {
            return delegate.writeTarget(arguments);
        }

        @Override
        public ToolResult execute(String toolCallId, JsonNode arguments, CancellationToken cancel,
                Consumer<ToolOutput> onUpdate) throws Exception {
            // "Always allow" was given for calls as they were shown; a target outside the project asks again.
            boolean outside = ToolCalls.outside(arguments, cwd);
            if (outside || !alwaysAllowed.contains(name())) {
                ObjectNode params = AcpJson.object().put("sessionId", sessionId.get());
                ObjectNode call = params.putObject("toolCall").put("toolCallId", toolCallId)
                        .put("title", ToolCalls.title(name(), arguments, cwd)).put("kind", ToolCalls.kind(name()))
                        .put("status", "pending");
                call.set("locations", ToolCalls.locations(arguments, cwd));
                ToolCalls.targetNote(name(), arguments, cwd).ifPresent(note -> call.putArray("content").addObject()
                        .put("type", "content").set("content", AcpJson.text(note)));
                call.set("rawInput", arguments);
                var options = params.putArray("options");
                options.addObject().put("optionId", "allow_once").put("name", "Allow").put("kind", "allow_once");
                options.addObject().put("optionId", "allow_always").put("name", "Always allow " + name())
                        .put("kind", "allow_always");
                options.addObject().put("optionId", "reject_once").put("name", "Reject").put("kind", "reject_once");
                JsonNode outcome;
                try {
                    outcome = connection.call("session/request_permission", params, cancel).path("outcome");
                } catch (CancellationException e) { // session/cancel while the user was deciding
                    return ToolResult.error("Cancelled while waiting for permission to run this " + name() + " call.");
                }
                String chosen = "selected".equals(outcome.path("outcome").asText())
                        ? outcome.path("optionId").asText() : "cancelled";
                if (chosen.equals("allow_always")) {
                    alwaysAllowed.add(name());
                } else if (!chosen.equals("allow_once")) {
                    return ToolResult.error("The user did not allow this " + name() + " call (" + chosen + ").");
                }
            }
            ObjectNode running = AcpJson.object().put("sessionId", sessionId.get());
            running.set("update", UpdateMapper.running(toolCallId));
            connection.notify("session/update", running);
            return delegate.execute(toolCallId, arguments, cancel, onUpdate);
        }
    }
}
