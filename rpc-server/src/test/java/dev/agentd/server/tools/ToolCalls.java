package dev.agentd.server.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.runtime.CancellationToken;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** Calls tools with JSON-literal arguments and reads their text. */
final class ToolCalls {
    private ToolCalls() {}

    static ToolResult call(Tool tool, String json) throws Exception {
        return call(tool, json, CancellationToken.none(), output -> {});
    }

    static ToolResult call(Tool tool, String json, CancellationToken cancel, Consumer<ToolOutput> onUpdate)
            throws Exception {
        return tool.execute("call-1", args(json), cancel, onUpdate);
    }

    static JsonNode args(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The text blocks of a result, joined. */
    static String text(ToolResult result) {
        return result.content().stream().filter(ContentBlock.Text.class::isInstance)
                .map(b -> ((ContentBlock.Text) b).text()).collect(Collectors.joining("\n"));
    }

    static String text(ToolOutput output) {
        return output.content().stream().filter(ContentBlock.Text.class::isInstance)
                .map(b -> ((ContentBlock.Text) b).text()).collect(Collectors.joining("\n"));
    }
}
