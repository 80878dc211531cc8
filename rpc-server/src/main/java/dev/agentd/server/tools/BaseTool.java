package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import java.util.function.Consumer;

/**
 * The shared shape of the built-in tools: arguments are validated against the declared parameters
 * first, and a {@link ToolException} anywhere becomes an error result with its message.
 */
public abstract class BaseTool implements Tool {
    private final ToolParams params;
    private final ToolDefinition definition;

    protected BaseTool(String name, String description, ToolParams params) {
        this.params = params;
        this.definition = new ToolDefinition(name, description, params.schema());
    }

    @Override
    public final ToolDefinition definition() {
        return definition;
    }

    @Override
    public final ToolResult execute(String toolCallId, JsonNode arguments, CancellationToken cancel,
            Consumer<ToolOutput> onUpdate) throws Exception {
        try {
            ToolArgs args = params.validate(definition.name(), arguments);
            return run(args, cancel == null ? CancellationToken.none() : cancel, onUpdate == null ? o -> {} : onUpdate);
        } catch (ToolException e) {
            return ToolResult.error(e.getMessage());
        }
    }

    /** Runs a call whose arguments passed validation. */
    protected abstract ToolResult run(ToolArgs args, CancellationToken cancel, Consumer<ToolOutput> onUpdate)
            throws Exception;
}
