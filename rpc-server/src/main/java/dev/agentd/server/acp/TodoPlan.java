package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.server.tools.TodoTool;
import dev.agentd.server.tools.ToolException;

/**
 * A successful {@code todo} call as ACP's {@code plan} update: the whole list (a plan update
 * replaces the client's), each entry with its content, status and priority ({@code medium} when
 * the model gave none: ACP requires one). Pure.
 */
final class TodoPlan {
    static final String DEFAULT_PRIORITY = "medium";

    private TodoPlan() {}

    /** The {@code plan} update for a finished call of {@code toolName}, or null when it is no todo list. */
    static ObjectNode update(String toolName, JsonNode args) {
        if (!TodoTool.NAME.equals(toolName) || args == null) {
            return null;
        }
        ObjectNode update = AcpJson.update("plan");
        ArrayNode entries = update.putArray("entries");
        try {
            for (TodoTool.Item item : TodoTool.items(args)) {
                entries.addObject().put("content", item.content())
                        .put("priority", item.priority() == null ? DEFAULT_PRIORITY : item.priority())
                        .put("status", item.status());
            }
        } catch (ToolException e) {
            return null; // the call failed too: its result says why
        }
        return update;
    }
}
