package dev.agentd.server.ai.openai;

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
 * The JSON body of a streaming chat-completions request, kept to the subset every compatible
 * server understands: messages (system or developer, user text/image_url parts, assistant content
 * plus tool_calls, {@code tool} results), function tools, usage in the stream, and
 * {@code reasoning_effort} for reasoning models. The model's own reasoning is not sent back:
 * chat completions has no field for it that all servers accept.
 */
final class OpenAiRequest {
    /** OpenAI rejects tool call ids longer than this; ids minted by other APIs can be. */
    static final int MAX_TOOL_ID = 40;
    static final String TOOL_IMAGES_NOTE = "Attached image(s) from tool result:";

    private OpenAiRequest() {}

    static ObjectNode build(StreamRequest request) {
        Model model = request.model();
        ObjectNode body = Json.mapper().createObjectNode();
        body.put("model", model.id());
        ArrayNode messages = body.putArray("messages");
        if (request.systemPrompt() != null && !request.systemPrompt().isBlank()) {
            ObjectNode system = messages.addObject();
            system.put("role", model.reasoning() && isOpenAi(model) ? "developer" : "system");
            system.put("content", request.systemPrompt());
        }
        boolean images = model.input().contains("image");
        for (ContextConverter.Turn turn : ContextConverter.convert(request.messages(), model)) {
            if (turn instanceof ContextConverter.UserTurn user) {
                ObjectNode message = messages.addObject();
                message.put("role", "user");
                userContent(message, user.content());
            } else if (turn instanceof ContextConverter.AssistantTurn assistant) {
                assistant(messages, assistant);
            } else if (turn instanceof ContextConverter.ToolResults tools) {
                toolResults(messages, tools, images);
            } else {
                throw new IllegalStateException("unhandled turn: " + turn);
            }
        }
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode function = tools.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name());
                function.put("description", tool.description() == null ? "" : tool.description());
                function.set("parameters", tool.schemaOrEmpty());
            }
        }
        if (request.maxOutputTokens() > 0) {
            // Only when asked (a probe): OpenAI itself wants max_completion_tokens, compatible servers max_tokens.
            body.put(isOpenAi(model) ? "max_completion_tokens" : "max_tokens", request.maxOutputTokens());
        }
        String effort = reasoningEffort(model, request.thinkingLevel());
        if (effort != null) {
            body.put("reasoning_effort", effort);
        }
        return body;
    }

    /** minimal/low/medium/high; xhigh (and max) only where the model has it, else high. Null: leave the default. */
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
            // OpenAI has no effort above xhigh; max only arrives here for a model that claims it.
            case XHIGH, MAX -> id.contains("gpt-5.1-codex-max") || id.contains("gpt-5.2") ? "xhigh" : "high";
        };
    }

    static String toolId(String id) {
        String value = id == null || id.isEmpty() ? "call" : id;
        return value.length() > MAX_TOOL_ID ? value.substring(0, MAX_TOOL_ID) : value;
    }

    private static boolean isOpenAi(Model model) {
        return model.baseUrl() != null && model.baseUrl().contains("api.openai.com");
    }

    private static void userContent(ObjectNode message, List<ContentBlock> content) {
        boolean textOnly = content.stream().allMatch(ContentBlock.Text.class::isInstance);
        if (textOnly) {
            StringBuilder text = new StringBuilder();
            for (ContentBlock block : content) {
                if (text.length() > 0) {
                    text.append('\n');
                }
                text.append(((ContentBlock.Text) block).text());
            }
            message.put("content", text.toString());
            return;
        }
        ArrayNode parts = message.putArray("content");
        content.forEach(block -> parts.add(part(block)));
    }

    private static ObjectNode part(ContentBlock block) {
        ObjectNode part = Json.mapper().createObjectNode();
        if (block instanceof ContentBlock.Image image) {
            part.put("type", "image_url");
            part.putObject("image_url").put("url", "data:" + image.mimeType() + ";base64," + image.data());
        } else {
            part.put("type", "text");
            part.put("text", ((ContentBlock.Text) block).text());
        }
        return part;
    }

    private static void assistant(ArrayNode messages, ContextConverter.AssistantTurn turn) {
        StringBuilder text = new StringBuilder();
        ArrayNode calls = Json.mapper().createArrayNode();
        for (ContentBlock block : turn.content()) {
            if (block instanceof ContentBlock.Text part) {
                text.append(part.text());
            } else if (block instanceof ContentBlock.ToolCall call) {
                ObjectNode entry = calls.addObject();
                entry.put("id", toolId(call.id()));
                entry.put("type", "function");
                ObjectNode function = entry.putObject("function");
                function.put("name", call.name());
                function.put("arguments", call.arguments() == null ? "{}" : call.arguments().toString());
            }
        }
        if (text.length() == 0 && calls.isEmpty()) {
            return; // only this model's own reasoning, which is not sent back
        }
        ObjectNode message = messages.addObject();
        message.put("role", "assistant");
        if (text.length() > 0) {
            message.put("content", text.toString());
        } else {
            message.putNull("content");
        }
        if (!calls.isEmpty()) {
            message.set("tool_calls", calls);
        }
    }

    /** One {@code tool} message per result; their images follow in a user message (tool content is text). */
    private static void toolResults(ArrayNode messages, ContextConverter.ToolResults turn, boolean images) {
        List<ContentBlock> attached = new ArrayList<>();
        for (ContextConverter.Result result : turn.results()) {
            StringBuilder text = new StringBuilder();
            boolean hasImage = false;
            for (ContentBlock block : result.content()) {
                if (block instanceof ContentBlock.Text part) {
                    text.append(text.length() > 0 ? "\n" : "").append(part.text());
                } else if (block instanceof ContentBlock.Image image) {
                    hasImage = true;
                    if (images) {
                        attached.add(image);
                    }
                }
            }
            ObjectNode message = messages.addObject();
            message.put("role", "tool");
            message.put("tool_call_id", toolId(result.toolCallId()));
            message.put("content", text.length() > 0 ? text.toString()
                    : hasImage ? "(see attached image)" : "(no output)");
        }
        if (!attached.isEmpty()) {
            ObjectNode message = messages.addObject();
            message.put("role", "user");
            ArrayNode parts = message.putArray("content");
            parts.addObject().put("type", "text").put("text", TOOL_IMAGES_NOTE);
            attached.forEach(image -> parts.add(part(image)));
        }
    }
}
