package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.message.ContentBlock;
import java.util.List;

/**
 * What a tool call produced: content for the model, details for clients, whether it failed, and
 * (pi 1.x, bash only here) the result as data for programs, shown in {@code tool_execution_end}.
 */
public record ToolResult(List<ContentBlock> content, JsonNode details, boolean isError, JsonNode structuredContent) {

    public ToolResult {
        content = content == null ? List.of() : List.copyOf(content);
    }

    public ToolResult(List<ContentBlock> content, JsonNode details, boolean isError) {
        this(content, details, isError, null);
    }

    public static ToolResult text(String text) {
        return new ToolResult(List.of(new ContentBlock.Text(text)), null, false);
    }

    public static ToolResult error(String message) {
        return new ToolResult(List.of(new ContentBlock.Text(message)), null, true);
    }

    public ToolOutput output() {
        return new ToolOutput(content, details, structuredContent);
    }
}
