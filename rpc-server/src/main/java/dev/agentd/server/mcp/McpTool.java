package dev.agentd.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One tool of an MCP server, offered to the model under its namespaced name. A call waits for the
 * result within the server's timeout, which each progress notification restarts; it ends at once
 * when the run is cancelled or the server's connection ends, and the server is told of a
 * cancellation or timeout ({@code notifications/cancelled}).
 */
final class McpTool implements Tool {
    static final int MAX_DESCRIPTION_CHARS = 4_000;
    static final int MAX_SCHEMA_CHARS = 64 * 1024;
    private static final AtomicLong TOKENS = new AtomicLong();

    /** What a call needs of its server: the live link, the progress routing, the end of the connection. */
    interface Server {
        String name();

        long timeoutMs();

        /** The link, or empty when the connection has ended (with why). */
        Optional<McpLink> link();

        /** Why the connection ended, or null. */
        String closedReason();

        /** Routes progress for {@code token} to {@code onProgress} until the returned handle runs. */
        Runnable watch(String token, Consumer<String> onProgress, CompletableFuture<String> stop);
    }

    private final Server server;
    private final String remoteName;
    private final ToolDefinition definition;

    McpTool(Server server, String remoteName, ToolDefinition definition) {
        this.server = server;
        this.remoteName = remoteName;
        this.definition = definition;
    }

    /**
     * The definition the model sees for a server's {@code tool} JSON: its description and schema
     * bounded (a schema beyond {@link #MAX_SCHEMA_CHARS}, or not an object, becomes the empty object
     * schema and the description says so).
     */
    static ToolDefinition definitionOf(String server, String name, JsonNode tool) {
        String description = tool.path("description").asText("");
        if (description.isBlank()) {
            description = tool.path("title").asText("");
        }
        if (description.length() > MAX_DESCRIPTION_CHARS) {
            description = description.substring(0, MAX_DESCRIPTION_CHARS) + "…";
        }
        JsonNode schema = tool.get("inputSchema");
        if (schema == null || !schema.isObject() || schema.toString().length() > MAX_SCHEMA_CHARS) {
            ObjectNode empty = Json.mapper().createObjectNode().put("type", "object");
            empty.putObject("properties");
            description += (description.isEmpty() ? "" : "\n") + "(Its argument schema was missing or too large.)";
            schema = empty;
        }
        return new ToolDefinition(name, "[MCP server " + server + "] " + description, schema);
    }

    String remoteName() {
        return remoteName;
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    /** Calls of one server may run side by side; what they write is the server's business. */
    @Override
    public ToolResult execute(String toolCallId, JsonNode arguments, CancellationToken cancel,
            Consumer<ToolOutput> onUpdate) throws Exception {
        McpLink link = server.link().orElse(null);
        if (link == null) {
            return ToolResult.error("MCP server '" + server.name() + "' is not connected: " + server.closedReason());
        }
        String token = "agentd-" + TOKENS.incrementAndGet();
        CompletableFuture<String> stop = new CompletableFuture<>();
        AtomicLong lastActivity = new AtomicLong(System.nanoTime());
        Runnable unwatch = server.watch(token, message -> {
            lastActivity.set(System.nanoTime());
            onUpdate.accept(new ToolOutput(List.of(new ContentBlock.Text(message)), null, null));
        }, stop);
        Runnable unhook = cancel.onCancel(() -> stop.complete("cancelled"));
        CompletableFuture<JsonNode> call = link.call(remoteName, arguments, token);
        try {
            long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(server.timeoutMs());
            while (true) {
                long remaining = lastActivity.get() + timeoutNanos - System.nanoTime();
                if (remaining <= 0) {
                    link.cancel(token, "timed out");
                    call.cancel(true);
                    return ToolResult.error("MCP server '" + server.name() + "' did not answer " + remoteName
                            + " within " + seconds(server.timeoutMs()) + " (the server's timeout; progress restarts it)");
                }
                try {
                    CompletableFuture.anyOf(call, stop).get(remaining, TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    continue; // progress may have moved the deadline
                } catch (ExecutionException e) {
                    // the call failed: reported below
                }
                if (call.isDone()) {
                    break;
                }
                String why = stop.getNow("stopped");
                link.cancel(token, why);
                call.cancel(true);
                if (why.equals("cancelled")) {
                    return ToolResult.error("The " + definition.name() + " call was cancelled.");
                }
                return ToolResult.error("MCP server '" + server.name() + "' " + why);
            }
            try {
                return McpResults.toResult(server.name(), remoteName, call.join());
            } catch (RuntimeException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                return ToolResult.error("MCP server '" + server.name() + "' failed " + remoteName + ": "
                        + (cause instanceof McpException ? cause.getMessage() : McpConfig.printable(String.valueOf(
                                cause.getMessage()))));
            }
        } finally {
            unhook.run();
            unwatch.run();
        }
    }

    private static String seconds(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
