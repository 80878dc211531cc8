package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import java.util.function.Consumer;

/** A tool the model can call. Implementations validate their own arguments. */
public interface Tool {

    /** Name, description and JSON schema, as sent to providers. */
    ToolDefinition definition();

    default String name() {
        return definition().name();
    }

    /**
     * Runs one call. A failure is returned as {@link ToolResult#error}, or thrown (the loop turns a
     * thrown exception into an error result carrying its message).
     *
     * @param onUpdate receives the accumulated output so far (for {@code tool_execution_update})
     */
    ToolResult execute(String toolCallId, JsonNode arguments, CancellationToken cancel, Consumer<ToolOutput> onUpdate)
            throws Exception;
}
