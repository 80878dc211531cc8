package dev.agentd.server.ai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ContextConverter;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.ThinkingSupport;
import dev.agentd.server.ai.ToolDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON body of a streaming Responses request, as pi 1.6 sends it: {@code input} items (system
 * or developer instructions, user {@code input_text}/{@code input_image}, the model's own
 * {@code reasoning} items replayed from their thinking signature, assistant messages,
 * {@code function_call}/{@code function_call_output} by {@code call_id}), function tools,
 * {@code store:false} (so reasoning travels as {@code encrypted_content}, which is asked for via
 * {@code include}) and {@code prompt_cache_key} = the session id.
 *
 * <p>Item ids ({@code msg_…}, {@code fc_…}) are sent only in a turn that replays its reasoning
 * item: OpenAI rejects a message or call whose id refers to reasoning that is not sent with it.
 */
final class ResponsesRequest {
    /** OpenAI's limit on ids and on prompt_cache_key. */
    static final int MAX_ID = 64;
    /** pi's floor: OpenAI rejects smaller max_output_tokens. */
    static final int MIN_OUTPUT_TOKENS = 16;

    private ResponsesRequest() {}

    /** @param model the name sent as {@code model} (Azure: the deployment) */
    static ObjectNode build(StreamRequest request, String model) {
        Model target = request.model();
        ObjectNode body = Json.mapper().createObjectNode();
        body.put("model", model);
        ArrayNode input = body.putArray("input");
        if (request.systemPrompt() != null && !request.systemPrompt().isBlank()) {
            input.addObject().put("role", target.reasoning() ? "developer" : "system")
                    .put("content", request.systemPrompt());
        }
        boolean images = target.input().contains("image");
        for (ContextConverter.Turn turn : ContextConverter.convert(request.messages(), target)) {
            if (turn instanceof ContextConverter.UserTurn user) {
                ArrayNode content = input.addObject().put("role", "user").putArray("content");
                user.content().forEach(block -> content.add(part(block)));
            } else if (turn instanceof ContextConverter.AssistantTurn assistant) {
                assistant(input, assistant);
            } else if (turn instanceof ContextConverter.ToolResults tools) {
                tools.results().forEach(result -> input.add(toolResult(result, images)));
            } else {
                throw new IllegalStateException("unhandled turn: " + turn);
            }
        }
        body.put("stream", true);
        body.put("store", false);
        if (request.sessionId() != null && !request.sessionId().isEmpty()) {
            body.put("prompt_cache_key", cut(request.sessionId()));
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDefinition tool : request.tools()) {
                tools.addObject().put("type", "function").put("name", tool.name())
                        .put("description", tool.description() == null ? "" : tool.description())
                        .set("parameters", tool.schemaOrEmpty());
            }
        }
        if (request.maxOutputTokens() > 0) {
            body.put("max_output_tokens", Math.max(request.maxOutputTokens(), MIN_OUTPUT_TOKENS));
        }
        String effort = reasoningEffort(target, request.thinkingLevel());
        if (effort != null) {
            body.putObject("reasoning").put("effort", effort).put("summary", "auto");
            body.putArray("include").add("reasoning.encrypted_content");
        }
        return body;
    }

    /** minimal/low/medium/high; xhigh only where the model has it. Null: the model's default. */
    static String reasoningEffort(Model model, ThinkingLevel requested) {
        if (!model.reasoning() || requested == null || requested == ThinkingLevel.OFF) {
            return null;
        }
        String id = model.id();
        return switch (ThinkingSupport.clamp(model, requested)) {
            case OFF -> null;
            // gpt-5, -mini, -nano accept minimal; gpt-5.1+ and the o-series do not.
            case MINIMAL -> id.contains("gpt-5") && !id.contains("gpt-5.") ? "minimal" : "low";
            case LOW -> "low";
            case MEDIUM -> "medium";
            case HIGH -> "high";
            case XHIGH, MAX -> id.contains("gpt-5.1-codex-max") || id.contains("gpt-5.2") ? "xhigh" : "high";
        };
    }

    /** The call id (before a {@code |}), in the characters and length OpenAI accepts. */
    static String callId(String toolCallId) {
        String id = toolCallId == null ? "" : toolCallId;
        int bar = id.indexOf('|');
        return normalize(bar >= 0 ? id.substring(0, bar) : id, "call");
    }

    /** The {@code fc_…} item id after a {@code |}, or null. */
    static String itemId(String toolCallId) {
        int bar = toolCallId == null ? -1 : toolCallId.indexOf('|');
        String item = bar < 0 ? "" : normalize(toolCallId.substring(bar + 1), "");
        return item.startsWith("fc_") ? item : null;
    }

    private static String normalize(String id, String fallback) {
        String clean = cut(id.replaceAll("[^a-zA-Z0-9_-]", "_"));
        return clean.isEmpty() ? fallback : clean;
    }

    private static String cut(String id) {
        return id.length() > MAX_ID ? id.substring(0, MAX_ID) : id;
    }

    private static ObjectNode part(ContentBlock block) {
        ObjectNode part = Json.mapper().createObjectNode();
        if (block instanceof ContentBlock.Image image) {
            part.put("type", "input_image").put("detail", "auto")
                    .put("image_url", "data:" + image.mimeType() + ";base64," + image.data());
        } else {
            part.put("type", "input_text").put("text", ((ContentBlock.Text) block).text());
        }
        return part;
    }

    private static void assistant(ArrayNode input, ContextConverter.AssistantTurn turn) {
        List<JsonNode> reasoning = new ArrayList<>();
        for (ContentBlock block : turn.content()) {
            if (block instanceof ContentBlock.Thinking thinking) {
                JsonNode item = ReasoningItems.parse(thinking.thinkingSignature());
                if (item != null) {
                    reasoning.add(item);
                }
            }
        }
        boolean withIds = !reasoning.isEmpty();
        for (ContentBlock block : turn.content()) {
            if (block instanceof ContentBlock.Thinking thinking) {
                JsonNode item = ReasoningItems.parse(thinking.thinkingSignature());
                if (item != null) {
                    input.add(item);
                }
            } else if (block instanceof ContentBlock.Text text) {
                String id = withIds ? ReasoningItems.messageId(text.textSignature()) : null;
                if (id == null) {
                    input.addObject().put("role", "assistant").put("content", text.text());
                } else {
                    ObjectNode message = input.addObject().put("type", "message").put("role", "assistant");
                    message.putArray("content").addObject().put("type", "output_text").put("text", text.text())
                            .putArray("annotations");
                    message.put("status", "completed").put("id", cut(id));
                }
            } else if (block instanceof ContentBlock.ToolCall call) {
                ObjectNode item = input.addObject().put("type", "function_call");
                String itemId = withIds ? itemId(call.id()) : null;
                if (itemId != null) {
                    item.put("id", itemId);
                }
                item.put("call_id", callId(call.id())).put("name", call.name())
                        .put("arguments", call.arguments() == null ? "{}" : call.arguments().toString());
            }
        }
    }

    /** Text output; with images (for a model that takes them) a list of input parts. */
    private static ObjectNode toolResult(ContextConverter.Result result, boolean images) {
        ObjectNode item = Json.mapper().createObjectNode().put("type", "function_call_output")
                .put("call_id", callId(result.toolCallId()));
        StringBuilder text = new StringBuilder();
        List<ContentBlock.Image> attached = new ArrayList<>();
        for (ContentBlock block : result.content()) {
            if (block instanceof ContentBlock.Text part) {
                text.append(text.length() > 0 ? "\n" : "").append(part.text());
            } else if (block instanceof ContentBlock.Image image) {
                attached.add(image);
            }
        }
        if (attached.isEmpty() || !images) {
            item.put("output", !text.toString().isBlank() ? text.toString()
                    : attached.isEmpty() ? "(no tool output)" : "(see attached image)");
            return item;
        }
        ArrayNode output = item.putArray("output");
        if (!text.toString().isBlank()) {
            output.add(part(new ContentBlock.Text(text.toString())));
        }
        attached.forEach(image -> output.add(part(image)));
        return item;
    }
}
