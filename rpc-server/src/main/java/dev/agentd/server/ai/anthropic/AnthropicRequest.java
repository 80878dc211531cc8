package dev.agentd.server.ai.anthropic;

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

/**
 * The JSON body of a streaming Messages API request: model, max_tokens, system prompt, the
 * converted context, tools and extended thinking. The system prompt and the last user turn carry
 * {@code cache_control} so a long agent run re-reads its prefix from the prompt cache.
 */
public final class AnthropicRequest {
    private static final int MIN_BUDGET = 1024;

    private AnthropicRequest() {}

    public static ObjectNode build(StreamRequest request) {
        Model model = request.model();
        ObjectNode body = Json.mapper().createObjectNode();
        body.put("model", model.id());
        ThinkingLevel level = request.thinkingLevel() == null ? ThinkingLevel.OFF
                : ThinkingSupport.clamp(model, request.thinkingLevel());
        long maxOutput = model.maxTokens() > 0 ? model.maxTokens() : 8192;
        // Like pi: a third of the model's output cap leaves room without inflating rate-limit estimates.
        long maxTokens = Math.min(maxOutput, Math.max(4096, maxOutput / 3));
        long budget = 0;
        if (model.reasoning() && level != ThinkingLevel.OFF) {
            budget = budget(level);
            maxTokens = Math.min(maxOutput, maxTokens + budget);
            if (budget >= maxTokens) {
                budget = maxTokens - MIN_BUDGET;
            }
        }
        if (request.maxOutputTokens() > 0) {
            maxTokens = Math.min(maxTokens, request.maxOutputTokens());
        }
        body.put("max_tokens", maxTokens);
        body.put("stream", true);
        if (request.systemPrompt() != null && !request.systemPrompt().isBlank()) {
            ObjectNode system = body.putArray("system").addObject();
            system.put("type", "text");
            system.put("text", request.systemPrompt());
            cache(system);
        }
        ArrayNode messages = body.putArray("messages");
        for (ContextConverter.Turn turn : ContextConverter.convert(request.messages(), model)) {
            messages.add(message(turn));
        }
        markLastUserTurn(messages);
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode entry = tools.addObject();
                entry.put("name", tool.name());
                entry.put("description", tool.description() == null ? "" : tool.description());
                entry.set("input_schema", tool.schemaOrEmpty());
            }
        }
        if (budget >= MIN_BUDGET) {
            ObjectNode thinking = body.putObject("thinking");
            thinking.put("type", "enabled");
            thinking.put("budget_tokens", budget);
        }
        return body;
    }

    /** Thinking budget per level; max_tokens must exceed it. */
    static long budget(ThinkingLevel level) {
        return switch (level) {
            case OFF -> 0;
            case MINIMAL -> 1024;
            case LOW -> 4096;
            case MEDIUM -> 10_240;
            case HIGH -> 20_480;
            case XHIGH -> 32_000;
            case MAX -> 64_000;
        };
    }

    /** Tool ids must match {@code ^[a-zA-Z0-9_-]{1,64}$}; ids minted by other APIs may not. */
    static String toolId(String id) {
        String clean = (id == null || id.isEmpty() ? "tool" : id).replaceAll("[^a-zA-Z0-9_-]", "_");
        return clean.length() > 64 ? clean.substring(0, 64) : clean;
    }

    private static ObjectNode message(ContextConverter.Turn turn) {
        ObjectNode message = Json.mapper().createObjectNode();
        ArrayNode content;
        if (turn instanceof ContextConverter.UserTurn user) {
            message.put("role", "user");
            content = message.putArray("content");
            user.content().forEach(block -> content.add(userBlock(block)));
        } else if (turn instanceof ContextConverter.AssistantTurn assistant) {
            message.put("role", "assistant");
            content = message.putArray("content");
            assistant.content().forEach(block -> content.add(assistantBlock(block)));
        } else if (turn instanceof ContextConverter.ToolResults tools) {
            message.put("role", "user");
            content = message.putArray("content");
            for (ContextConverter.Result result : tools.results()) {
                ObjectNode entry = content.addObject();
                entry.put("type", "tool_result");
                entry.put("tool_use_id", toolId(result.toolCallId()));
                if (!result.content().isEmpty()) {
                    ArrayNode parts = entry.putArray("content");
                    result.content().forEach(block -> parts.add(userBlock(block)));
                }
                entry.put("is_error", result.isError());
            }
        } else {
            throw new IllegalStateException("unhandled turn: " + turn);
        }
        return message;
    }

    private static ObjectNode userBlock(ContentBlock block) {
        ObjectNode node = Json.mapper().createObjectNode();
        if (block instanceof ContentBlock.Image image) {
            node.put("type", "image");
            ObjectNode source = node.putObject("source");
            source.put("type", "base64");
            source.put("media_type", image.mimeType());
            source.put("data", image.data());
        } else {
            node.put("type", "text");
            node.put("text", ((ContentBlock.Text) block).text());
        }
        return node;
    }

    private static ObjectNode assistantBlock(ContentBlock block) {
        ObjectNode node = Json.mapper().createObjectNode();
        if (block instanceof ContentBlock.Thinking thinking) {
            if (Boolean.TRUE.equals(thinking.redacted())) {
                node.put("type", "redacted_thinking");
                node.put("data", thinking.thinkingSignature());
            } else {
                node.put("type", "thinking");
                node.put("thinking", thinking.thinking());
                node.put("signature", thinking.thinkingSignature());
            }
        } else if (block instanceof ContentBlock.ToolCall call) {
            node.put("type", "tool_use");
            node.put("id", toolId(call.id()));
            node.put("name", call.name());
            node.set("input", call.arguments() != null && call.arguments().isObject() ? call.arguments()
                    : Json.mapper().createObjectNode());
        } else {
            node.put("type", "text");
            node.put("text", ((ContentBlock.Text) block).text());
        }
        return node;
    }

    /** Caches the prefix up to the newest user content (a breakpoint on its last block). */
    private static void markLastUserTurn(ArrayNode messages) {
        if (messages.isEmpty()) {
            return;
        }
        JsonNode last = messages.get(messages.size() - 1);
        JsonNode content = last.path("content");
        if ("user".equals(last.path("role").asText()) && content.isArray() && !content.isEmpty()) {
            cache((ObjectNode) content.get(content.size() - 1));
        }
    }

    private static void cache(ObjectNode block) {
        block.putObject("cache_control").put("type", "ephemeral");
    }
}
