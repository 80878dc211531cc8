package dev.agentd.server.testing.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI Responses stream text as the API reference documents it: each event as
 * {@code event: <type>} plus {@code data: <json>} with its {@code type} and a growing
 * {@code sequence_number}; no {@code [DONE]}. {@link #text} and {@link #reasoningThenCall} give the
 * full sequences (created, in_progress, output_item.added, content_part.added, deltas, *.done,
 * content_part.done, output_item.done, completed with output and usage).
 */
public final class ResponsesWire {
    public static final String MODEL = "gpt-5-2025-08-07";
    private final List<String> events = new ArrayList<>();
    private final ArrayNode output = Json.mapper().createArrayNode();

    public static ResponsesWire stream() {
        return new ResponsesWire().event("response.created", response("in_progress"))
                .event("response.in_progress", response("in_progress"));
    }

    /** A whole reply: one message with {@code parts} as text deltas, completed with the given usage. */
    public static List<String> text(String messageId, String... parts) {
        return stream().message(0, messageId, parts).completed(usage(100, 40, 20, 0)).events();
    }

    /** Reasoning (summary deltas, encrypted_content on done) then one function call, completed. */
    public static List<String> reasoningThenCall(String reasoningId, String encrypted, String summary, String callId,
            String itemId, String name, String... argumentParts) {
        return stream().reasoning(0, reasoningId, encrypted, summary)
                .functionCall(1, itemId, callId, name, argumentParts)
                .completed(usage(500, 120, 300, 64)).events();
    }

    public ResponsesWire message(int index, String id, String... parts) {
        ObjectNode item = Json.mapper().createObjectNode().put("id", id).put("type", "message")
                .put("status", "in_progress").put("role", "assistant");
        item.putArray("content");
        event("response.output_item.added", node().put("output_index", index).set("item", item.deepCopy()));
        ObjectNode part = Json.mapper().createObjectNode().put("type", "output_text").put("text", "");
        part.putArray("annotations");
        event("response.content_part.added", node().put("item_id", id).put("output_index", index)
                .put("content_index", 0).set("part", part.deepCopy()));
        StringBuilder all = new StringBuilder();
        for (String delta : parts) {
            all.append(delta);
            event("response.output_text.delta", node().put("item_id", id).put("output_index", index)
                    .put("content_index", 0).put("delta", delta));
        }
        event("response.output_text.done", node().put("item_id", id).put("output_index", index)
                .put("content_index", 0).put("text", all.toString()));
        part.put("text", all.toString());
        event("response.content_part.done", node().put("item_id", id).put("output_index", index)
                .put("content_index", 0).set("part", part));
        item.put("status", "completed");
        item.withArray("content").add(part);
        return itemDone(index, item);
    }

    public ResponsesWire reasoning(int index, String id, String encrypted, String summary) {
        ObjectNode item = Json.mapper().createObjectNode().put("id", id).put("type", "reasoning");
        item.putArray("summary");
        event("response.output_item.added", node().put("output_index", index).set("item", item.deepCopy()));
        ObjectNode part = Json.mapper().createObjectNode().put("type", "summary_text").put("text", "");
        event("response.reasoning_summary_part.added", node().put("item_id", id).put("output_index", index)
                .put("summary_index", 0).set("part", part.deepCopy()));
        event("response.reasoning_summary_text.delta", node().put("item_id", id).put("output_index", index)
                .put("summary_index", 0).put("delta", summary));
        event("response.reasoning_summary_text.done", node().put("item_id", id).put("output_index", index)
                .put("summary_index", 0).put("text", summary));
        part.put("text", summary);
        event("response.reasoning_summary_part.done", node().put("item_id", id).put("output_index", index)
                .put("summary_index", 0).set("part", part.deepCopy()));
        item.withArray("summary").add(part);
        item.put("encrypted_content", encrypted);
        return itemDone(index, item);
    }

    public ResponsesWire functionCall(int index, String itemId, String callId, String name, String... parts) {
        ObjectNode item = Json.mapper().createObjectNode().put("id", itemId).put("type", "function_call")
                .put("status", "in_progress").put("arguments", "").put("call_id", callId).put("name", name);
        event("response.output_item.added", node().put("output_index", index).set("item", item.deepCopy()));
        StringBuilder all = new StringBuilder();
        for (String delta : parts) {
            all.append(delta);
            event("response.function_call_arguments.delta", node().put("item_id", itemId)
                    .put("output_index", index).put("delta", delta));
        }
        event("response.function_call_arguments.done", node().put("item_id", itemId).put("output_index", index)
                .put("arguments", all.toString()));
        item.put("status", "completed").put("arguments", all.toString());
        return itemDone(index, item);
    }

    public ResponsesWire completed(ObjectNode usage) {
        ObjectNode response = response("completed");
        response.set("output", output);
        response.set("usage", usage);
        return event("response.completed", response);
    }

    public ResponsesWire event(String type, ObjectNode payload) {
        ObjectNode data = Json.mapper().createObjectNode().put("type", type);
        if (payload.has("id") && payload.has("status")) {
            data.set("response", payload);
        } else {
            data.setAll(payload);
        }
        data.put("sequence_number", events.size());
        events.add("event: " + type + "\ndata: " + data + "\n\n");
        return this;
    }

    public List<String> events() {
        return List.copyOf(events);
    }

    public static ObjectNode usage(long input, long output, long cached, long reasoning) {
        ObjectNode usage = Json.mapper().createObjectNode().put("input_tokens", input);
        usage.putObject("input_tokens_details").put("cached_tokens", cached);
        usage.put("output_tokens", output);
        usage.putObject("output_tokens_details").put("reasoning_tokens", reasoning);
        return usage.put("total_tokens", input + output);
    }

    public static ObjectNode response(String status) {
        ObjectNode response = Json.mapper().createObjectNode().put("id", "resp_67ccd2bed1ec8190")
                .put("object", "response").put("created_at", 1741476542).put("status", status);
        response.putNull("error");
        response.putNull("incomplete_details");
        response.put("model", MODEL);
        response.putArray("output");
        response.putNull("usage");
        return response;
    }

    private ResponsesWire itemDone(int index, ObjectNode item) {
        output.add(item.deepCopy());
        return event("response.output_item.done", node().put("output_index", index).set("item", item));
    }

    private static ObjectNode node() {
        return Json.mapper().createObjectNode();
    }
}
