package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The built-in tools as an editor sees them (issue 16 §5), as decorators rather than forks: before
 * a write, edit or bash call the user is asked ({@code session/request_permission}, unless the
 * setting {@code acp.permissions} is {@code "allow"}; "allow always" is remembered per tool for the
 * session), and when the client offers {@code fs.writeTextFile} a write goes to the editor's
 * buffer ({@code fs/write_text_file}) instead of the disk. The waits run on the tool's thread.
 */
final class EditorTools {
    private static final Set<String> ASK_FIRST = Set.of("write", "edit", "bash");

    private final AcpConnection connection;
    private final Supplier<String> sessionId;
    private final Path cwd;
    private final boolean clientWrites;
    private final boolean ask;
    private final Set<String> alwaysAllowed = ConcurrentHashMap.newKeySet();

    EditorTools(AcpConnection connection, Supplier<String> sessionId, Path cwd, boolean clientWrites, boolean ask) {
        this.connection = connection;
        this.sessionId = sessionId;
        this.cwd = cwd;
        this.clientWrites = clientWrites;
        this.ask = ask;
    }

    List<Tool> decorate(List<Tool> tools) {
        List<Tool> decorated = new ArrayList<>();
        for (Tool tool : tools) {
            Tool each = clientWrites && tool.name().equals("write") ? new ClientWrite(tool) : tool;
            decorated.add(ask && ASK_FIRST.contains(tool.name()) ? new AskFirst(each) : each);
        }
        return decorated;
    }

    /** Waits for the client's answer; a cancelled run stops waiting. */
    private static JsonNode await(CompletableFuture<JsonNode> answer, CancellationToken cancel) throws Exception {
        Runnable unregister = cancel.onCancel(() -> answer.cancel(false));
        try {
            return answer.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            unregister.run();
        }
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
            if (!alwaysAllowed.contains(name())) {
                ObjectNode params = AcpJson.object().put("sessionId", sessionId.get());
                ObjectNode call = params.putObject("toolCall").put("toolCallId", toolCallId)
                        .put("title", ToolCalls.title(name(), arguments)).put("kind", ToolCalls.kind(name()))
                        .put("status", "pending");
                call.set("locations", ToolCalls.locations(arguments, cwd));
                call.set("rawInput", arguments);
                var options = params.putArray("options");
                options.addObject().put("optionId", "allow_once").put("name", "Allow").put("kind", "allow_once");
                options.addObject().put("optionId", "allow_always").put("name", "Always allow " + name())
                        .put("kind", "allow_always");
                options.addObject().put("optionId", "reject_once").put("name", "Reject").put("kind", "reject_once");
                JsonNode outcome = await(connection.request("session/request_permission", params), cancel)
                        .path("outcome");
                String chosen = "selected".equals(outcome.path("outcome").asText())
                        ? outcome.path("optionId").asText() : "cancelled";
                if (chosen.equals("allow_always")) {
                    alwaysAllowed.add(name());
                } else if (!chosen.equals("allow_once")) {
                    return ToolResult.error("The user did not allow this " + name() + " call (" + chosen + ").");
                }
            }
            return delegate.execute(toolCallId, arguments, cancel, onUpdate);
        }
    }

    /** {@code write} into the editor ({@code fs/write_text_file}): unsaved buffers and undo stay right. */
    private final class ClientWrite implements Tool {
        private final Tool delegate;

        ClientWrite(Tool delegate) {
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
            String raw = AcpJson.textOf(arguments, "path");
            String content = AcpJson.textOf(arguments, "content");
            if (raw == null || raw.isBlank() || content == null) {
                return delegate.execute(toolCallId, arguments, cancel, onUpdate); // its own argument errors
            }
            ObjectNode params = AcpJson.object().put("sessionId", sessionId.get())
                    .put("path", ToolCalls.absolute(raw, cwd)).put("content", content);
            try {
                await(connection.request("fs/write_text_file", params), cancel);
            } catch (AcpConnection.ClientError e) {
                return ToolResult.error("The editor could not write " + raw + ": " + e.getMessage());
            }
            return ToolResult.text("Successfully wrote " + content.getBytes(StandardCharsets.UTF_8).length
                    + " bytes to " + raw);
        }
    }
}
