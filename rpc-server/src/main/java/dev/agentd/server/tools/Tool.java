package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import java.util.Optional;
import java.util.function.Consumer;

/** A tool the model can call. Implementations validate their own arguments. */
public interface Tool {

    /** Name, description and JSON schema, as sent to providers. */
    ToolDefinition definition();

    default String name() {
        return definition().name();
    }

    /**
     * Whether calls of this tool must run alone (SPEC §4): the loop then runs the reply's calls one at
     * a time. The built-in tools are safe to run concurrently.
     */
    default boolean sequentialOnly() {
        return false;
    }

    /**
     * The file a call with these arguments would write, normalized, so two calls writing the same
     * file never run at the same time (SPEC §4); empty for tools that write nothing or bad arguments.
     */
    default Optional<String> writeTarget(JsonNode arguments) {
        return Optional.empty();
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
