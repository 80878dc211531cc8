package dev.agentd.server.testing.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.util.List;

/**
 * Chat-completions stream text as OpenAI sends it with {@code stream_options.include_usage}:
 * {@code data: <chunk>} lines, each chunk carrying {@code "usage":null} until the final choice-less
 * usage chunk, then {@code data: [DONE]}.
 */
public final class OpenAiWire {
    public static final String MODEL = "gpt-4o-mini-2024-07-18";

    private OpenAiWire() {}

    public static String data(ObjectNode chunk) {
        return "data: " + chunk + "\n\n";
    }

    public static String role() {
        ObjectNode delta = Json.mapper().createObjectNode().put("role", "assistant").put("content", "");
        delta.putNull("refusal");
        return chunk(delta, null);
    }

    public static String content(String text) {
        return chunk(Json.mapper().createObjectNode().put("content", text), null);
    }

    /** A refusal fragment ({@code content} null), as OpenAI streams a model's refusal. */
    public static String refusal(String text) {
        ObjectNode delta = Json.mapper().createObjectNode();
        delta.putNull("content");
        delta.put("refusal", text);
        return chunk(delta, null);
    }

    /** Reasoning the way compatible servers stream it ({@code reasoning_content} or {@code reasoning}). */
    public static String reasoning(String field, String text) {
        return chunk(Json.mapper().createObjectNode().put(field, text), null);
    }

    public static String toolCallStart(int index, String id, String name) {
        ObjectNode delta = Json.mapper().createObjectNode();
        delta.putNull("content");
        ObjectNode call = delta.putArray("tool_calls").addObject();
        call.put("index", index).put("id", id).put("type", "function");
        call.putObject("function").put("name", name).put("arguments", "");
        return chunk(delta, null);
    }

    public static String toolCallArgs(int index, String fragment) {
        ObjectNode delta = Json.mapper().createObjectNode();
        ObjectNode call = delta.putArray("tool_calls").addObject();
        call.put("index", index);
        call.putObject("function").put("arguments", fragment);
        return chunk(delta, null);
    }

    public static String finish(String reason) {
        return chunk(Json.mapper().createObjectNode(), reason);
    }

    public static String usage(long prompt, long completion, long cached, long reasoning) {
        ObjectNode chunk = base();
        chunk.putArray("choices");
        ObjectNode usage = chunk.putObject("usage");
        usage.put("prompt_tokens", prompt).put("completion_tokens", completion)
                .put("total_tokens", prompt + completion);
        usage.putObject("prompt_tokens_details").put("cached_tokens", cached).put("audio_tokens", 0);
        usage.putObject("completion_tokens_details").put("reasoning_tokens", reasoning).put("audio_tokens", 0)
                .put("accepted_prediction_tokens", 0).put("rejected_prediction_tokens", 0);
        return data(chunk);
    }

    public static String done() {
        return "data: [DONE]\n\n";
    }

    /** An HTTP error body ({@code code} may be null). */
    public static String errorBody(String message, String type, String code) {
        ObjectNode body = Json.mapper().createObjectNode();
        ObjectNode error = body.putObject("error").put("message", message).put("type", type);
        error.putNull("param");
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        return body.toString();
    }

    /** An error chunk inside a 200 stream (gateways send these). */
    public static String inBandError(String message, String type, String code) {
        return "data: " + errorBody(message, type, code) + "\n\n";
    }

    public static List<String> textReply(String... deltas) {
        List<String> out = new java.util.ArrayList<>();
        out.add(role());
        for (String delta : deltas) {
            out.add(content(delta));
        }
        out.add(finish("stop"));
        out.add(usage(20, 8, 0, 0));
        out.add(done());
        return out;
    }

    private static String chunk(ObjectNode delta, String finishReason) {
        ObjectNode chunk = base();
        ArrayNode choices = chunk.putArray("choices");
        ObjectNode choice = choices.addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        chunk.putNull("usage");
        return data(chunk);
    }

    private static ObjectNode base() {
        return Json.mapper().createObjectNode().put("id", "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG")
                .put("object", "chat.completion.chunk").put("created", 1741570283).put("model", MODEL)
                .put("service_tier", "default").put("system_fingerprint", "fp_06737a9306");
    }
}
