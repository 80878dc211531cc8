package dev.agentd.server.testing.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Messages API wire text as Anthropic streams it: {@code event:} line, {@code data:} line with the
 * event's JSON (whose {@code type} repeats the event name), blank line; pings between events.
 */
public final class AnthropicWire {
    public static final String MODEL = "claude-sonnet-4-5-20250929";

    private AnthropicWire() {}

    public static String event(String name, ObjectNode data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    public static String messageStart(long input, long cacheRead, long cacheWrite) {
        ObjectNode data = node("message_start");
        ObjectNode message = data.putObject("message");
        message.put("id", "msg_01XFDUDYJgAACzvnptvVoYEL");
        message.put("type", "message");
        message.put("role", "assistant");
        message.putArray("content");
        message.put("model", MODEL);
        message.putNull("stop_reason");
        message.putNull("stop_sequence");
        ObjectNode usage = message.putObject("usage");
        usage.put("input_tokens", input);
        usage.put("cache_creation_input_tokens", cacheWrite);
        usage.put("cache_read_input_tokens", cacheRead);
        usage.put("output_tokens", 1);
        return event("message_start", data);
    }

    public static String ping() {
        return "event: ping\ndata: {\"type\": \"ping\"}\n\n";
    }

    public static List<String> textBlock(int index, String... deltas) {
        List<String> out = new ArrayList<>();
        ObjectNode start = node("content_block_start").put("index", index);
        start.putObject("content_block").put("type", "text").put("text", "");
        out.add(event("content_block_start", start));
        for (String delta : deltas) {
            ObjectNode data = node("content_block_delta").put("index", index);
            data.putObject("delta").put("type", "text_delta").put("text", delta);
            out.add(event("content_block_delta", data));
        }
        out.add(blockStop(index));
        return out;
    }

    public static List<String> thinkingBlock(int index, String signature, String... deltas) {
        List<String> out = new ArrayList<>();
        ObjectNode start = node("content_block_start").put("index", index);
        start.putObject("content_block").put("type", "thinking").put("thinking", "").put("signature", "");
        out.add(event("content_block_start", start));
        for (String delta : deltas) {
            ObjectNode data = node("content_block_delta").put("index", index);
            data.putObject("delta").put("type", "thinking_delta").put("thinking", delta);
            out.add(event("content_block_delta", data));
        }
        ObjectNode sig = node("content_block_delta").put("index", index);
        sig.putObject("delta").put("type", "signature_delta").put("signature", signature);
        out.add(event("content_block_delta", sig));
        out.add(blockStop(index));
        return out;
    }

    public static List<String> redactedThinkingBlock(int index, String data) {
        ObjectNode start = node("content_block_start").put("index", index);
        start.putObject("content_block").put("type", "redacted_thinking").put("data", data);
        return List.of(event("content_block_start", start), blockStop(index));
    }

    public static List<String> toolUseBlock(int index, String id, String name, String... fragments) {
        List<String> out = new ArrayList<>();
        ObjectNode start = node("content_block_start").put("index", index);
        ObjectNode block = start.putObject("content_block").put("type", "tool_use").put("id", id).put("name", name);
        block.putObject("input");
        out.add(event("content_block_start", start));
        List<String> all = new ArrayList<>();
        all.add(""); // Anthropic opens with an empty fragment
        all.addAll(List.of(fragments));
        for (String fragment : all) {
            ObjectNode data = node("content_block_delta").put("index", index);
            data.putObject("delta").put("type", "input_json_delta").put("partial_json", fragment);
            out.add(event("content_block_delta", data));
        }
        out.add(blockStop(index));
        return out;
    }

    public static String messageDelta(String stopReason, long outputTokens) {
        ObjectNode data = node("message_delta");
        data.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
        data.putObject("usage").put("output_tokens", outputTokens);
        return event("message_delta", data);
    }

    public static String messageStop() {
        return event("message_stop", node("message_stop"));
    }

    /** An in-band error event on a 200 stream. */
    public static String error(String type, String message) {
        ObjectNode data = node("error");
        data.putObject("error").putNull("details").put("type", type).put("message", message);
        data.put("request_id", "req_011CSHoEeqs5C35K2UUqR7Fy");
        return event("error", data);
    }

    /** An HTTP error body. */
    public static String errorBody(String type, String message) {
        ObjectNode data = node("error");
        data.putObject("error").put("type", type).put("message", message);
        data.put("request_id", "req_011CSHoEeqs5C35K2UUqR7Fy");
        return data.toString();
    }

    /** A whole plain answer: start, one text block in the given deltas, end_turn, stop. */
    public static List<String> textReply(String... deltas) {
        return chunks(messageStart(25, 0, 0), ping(), textBlock(0, deltas), messageDelta("end_turn", 12),
                messageStop());
    }

    /** Flattens strings and lists of strings into one chunk list. */
    public static List<String> chunks(Object... parts) {
        List<String> out = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof Collection<?> many) {
                many.forEach(item -> out.add((String) item));
            } else {
                out.add((String) part);
            }
        }
        return out;
    }

    public static String blockStop(int index) {
        return event("content_block_stop", node("content_block_stop").put("index", index));
    }

    private static ObjectNode node(String type) {
        return Json.mapper().createObjectNode().put("type", type);
    }
}
