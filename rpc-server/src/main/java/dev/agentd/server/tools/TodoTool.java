package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code todo {todos: [{content, status, priority?}]}}: the model's task list, always given whole
 * (each call replaces the list). Opt-in ({@code --tools ...,todo}); it changes nothing on disk and
 * answers with a one-line count. Editors see each accepted list as an ACP {@code plan}. Bounded:
 * at most {@link #MAX_ITEMS} items of at most {@link #MAX_CONTENT_CHARS} characters.
 */
public final class TodoTool implements Tool {
    public static final String NAME = "todo";
    static final int MAX_ITEMS = 100;
    static final int MAX_CONTENT_CHARS = 500;
    private static final Set<String> STATUSES = Set.of("pending", "in_progress", "completed");
    private static final Set<String> PRIORITIES = Set.of("high", "medium", "low");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** One task; {@code priority} is null when the model gave none. */
    public record Item(String content, String status, String priority) {}

    private final ToolDefinition definition = new ToolDefinition(NAME, "Keep a task list for multi-step work. "
            + "Send the WHOLE list every time (it replaces the previous one): each item has 'content' (what to do), "
            + "'status' (pending, in_progress or completed) and optionally 'priority' (high, medium or low). "
            + "Keep one item in_progress at a time and mark items completed as soon as they are done. At most "
            + MAX_ITEMS + " items of at most " + MAX_CONTENT_CHARS + " characters.", schema());

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public ToolResult execute(String toolCallId, JsonNode arguments, CancellationToken cancel,
            Consumer<ToolOutput> onUpdate) {
        List<Item> items;
        try {
            items = items(arguments);
        } catch (ToolException e) {
            return ToolResult.error(e.getMessage());
        }
        long done = items.stream().filter(i -> i.status().equals("completed")).count();
        long running = items.stream().filter(i -> i.status().equals("in_progress")).count();
        String text = items.isEmpty() ? "Todo list cleared."
                : "Todo list updated: " + items.size() + (items.size() == 1 ? " item (" : " items (") + done
                        + " completed, " + running + " in progress, " + (items.size() - done - running) + " pending).";
        ArrayNode list = NODES.arrayNode();
        for (Item item : items) {
            ObjectNode entry = list.addObject().put("content", item.content()).put("status", item.status());
            if (item.priority() != null) {
                entry.put("priority", item.priority());
            }
        }
        ObjectNode details = NODES.objectNode();
        details.set("todos", list);
        return new ToolResult(List.of(new ContentBlock.Text(text)), details, false);
    }

    /**
     * The list a call's arguments give, checked.
     *
     * @throws ToolException "Invalid arguments for todo: …" naming the first problem
     */
    public static List<Item> items(JsonNode arguments) {
        JsonNode todos = arguments == null ? null : arguments.get("todos");
        if (todos == null || !todos.isArray()) {
            throw invalid("'todos' must be an array of {content, status, priority?}");
        }
        if (todos.size() > MAX_ITEMS) {
            throw invalid("at most " + MAX_ITEMS + " items (got " + todos.size() + ")");
        }
        List<Item> items = new ArrayList<>(todos.size());
        for (int i = 0; i < todos.size(); i++) {
            JsonNode todo = todos.get(i);
            String where = "todos[" + i + "]";
            if (!todo.isObject()) {
                throw invalid(where + " must be an object");
            }
            JsonNode content = todo.get("content");
            if (content == null || !content.isTextual() || content.textValue().isBlank()) {
                throw invalid(where + ".content must be a non-empty string");
            }
            if (content.textValue().length() > MAX_CONTENT_CHARS) {
                throw invalid(where + ".content is longer than " + MAX_CONTENT_CHARS + " characters");
            }
            String status = todo.path("status").asText("");
            if (!todo.path("status").isTextual() || !STATUSES.contains(status)) {
                throw invalid(where + ".status must be pending, in_progress or completed");
            }
            JsonNode priority = todo.get("priority");
            if (priority != null && !priority.isNull() && (!priority.isTextual() || !PRIORITIES.contains(priority.textValue()))) {
                throw invalid(where + ".priority must be high, medium or low");
            }
            items.add(new Item(content.textValue().strip(), status,
                    priority == null || priority.isNull() ? null : priority.textValue()));
        }
        return items;
    }

    private static ToolException invalid(String problem) {
        return new ToolException("Invalid arguments for " + NAME + ": " + problem);
    }

    private static ObjectNode schema() {
        ObjectNode schema = NODES.objectNode().put("type", "object");
        ObjectNode todos = schema.putObject("properties").putObject("todos").put("type", "array")
                .put("maxItems", MAX_ITEMS).put("description", "The whole task list, in order");
        ObjectNode item = todos.putObject("items").put("type", "object");
        ObjectNode properties = item.putObject("properties");
        properties.putObject("content").put("type", "string").put("maxLength", MAX_CONTENT_CHARS)
                .put("description", "What to do");
        ArrayNode statuses = properties.putObject("status").put("type", "string").putArray("enum");
        List.of("pending", "in_progress", "completed").forEach(statuses::add);
        ArrayNode priorities = properties.putObject("priority").put("type", "string").putArray("enum");
        List.of("high", "medium", "low").forEach(priorities::add);
        item.putArray("required").add("content").add("status");
        schema.putArray("required").add("todos");
        return schema;
    }
}
