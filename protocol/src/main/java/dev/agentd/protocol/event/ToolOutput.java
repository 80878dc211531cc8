package dev.agentd.protocol.event;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.ContentBlock;
import java.util.List;

/** A tool's (partial or final) output as carried by tool execution events. */
public record ToolOutput(List<ContentBlock> content, JsonNode details) {
    public ToolOutput {
        content = content == null ? List.of() : List.copyOf(content);
    }
}
