package dev.agentd.protocol.event;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.ContentBlock;
import java.util.List;

/**
 * A tool's (partial or final) output as carried by tool execution events. {@code structuredContent}
 * (pi 1.x) is the result as data for programs rather than the model; absent for most tools.
 */
public record ToolOutput(List<ContentBlock> content, JsonNode details, JsonNode structuredContent) {
    public ToolOutput {
        content = content == null ? List.of() : List.copyOf(content);
    }

    public ToolOutput(List<ContentBlock> content, JsonNode details) {
        this(content, details, null);
    }
}
