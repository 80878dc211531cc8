package dev.agentd.server.ai.bedrock;

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
import java.util.Locale;

/**
 * The JSON body of a ConverseStream request, as pi 1.6 sends it: {@code system} text blocks,
 * {@code messages} of content blocks (text, image bytes, toolUse, toolResult, reasoningContent
 * replayed with its signature for Claude), {@code toolConfig}, {@code inferenceConfig.maxTokens},
 * and Claude's extended thinking in {@code additionalModelRequestFields}. Converse rejects blank
 * text blocks, so they are dropped (or stand in as a placeholder where a block is required).
 */
final class BedrockRequest {
    static final String EMPTY = "(empty)";
    static final int MAX_ID = 64;
    private static final int MIN_BUDGET = 1024;

    private BedrockRequest() {}

    static ObjectNode build(StreamRequest request) {
        Model model = request.model();
        ObjectNode body = Json.mapper().createObjectNode();
        if (request.systemPrompt() != null && !request.systemPrompt().isBlank()) {
            body.putArray("system").addObject().put("text", request.systemPrompt());
        }
        ArrayNode messages = body.putArray("messages");
        for (ContextConverter.Turn turn : ContextConverter.convert(request.messages(), model)) {
            if (turn instanceof ContextConverter.UserTurn user) {
                ArrayNode content = Json.mapper().createArrayNode();
                user.content().forEach(block -> addPart(content, block));
                message(messages, "user", content);
            } else if (turn instanceof ContextConverter.AssistantTurn assistant) {
                ArrayNode content = Json.mapper().createArrayNode();
                assistant.content().forEach(block -> addAssistant(content, block, claude(model)));
                if (!content.isEmpty()) {
                    messages.addObject().put("role", "assistant").set("content", content);
                }
            } else if (turn instanceof ContextConverter.ToolResults tools) {
                ArrayNode content = Json.mapper().createArrayNode();
                tools.results().forEach(result -> content.add(toolResult(result)));
                message(messages, "user", content);
            } else {
                throw new IllegalStateException("unhandled turn: " + turn);
            }
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putObject("toolConfig").putArray("tools");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode spec = tools.addObject().putObject("toolSpec").put("name", tool.name())
                        .put("description", tool.description() == null || tool.description().isBlank()
                                ? tool.name() : tool.description());
                spec.putObject("inputSchema").set("json", tool.schemaOrEmpty());
            }
        }
        long maxTokens = model.maxTokens() > 0 ? model.maxTokens() : 8192;
        long budget = budget(model, request.thinkingLevel());
        if (request.maxOutputTokens() > 0) {
            maxTokens = Math.min(maxTokens, request.maxOutputTokens());
        }
        body.putObject("inferenceConfig").put("maxTokens", maxTokens);
        if (budget >= MIN_BUDGET && budget < maxTokens) {
            ObjectNode fields = body.putObject("additionalModelRequestFields");
            fields.putObject("thinking").put("type", "enabled").put("budget_tokens", budget);
            fields.putArray("anthropic_beta").add("interleaved-thinking-2025-05-14");
        }
        return body;
    }

    /** Claude's thinking budget per level (pi's defaults); 0 for other models or thinking off. */
    static long budget(Model model, ThinkingLevel requested) {
        if (!model.reasoning() || !claude(model) || requested == null) {
            return 0;
        }
        return switch (ThinkingSupport.clamp(model, requested)) {
            case OFF -> 0;
            case MINIMAL -> 1024;
            case LOW -> 2048;
            case MEDIUM -> 8192;
            case HIGH, XHIGH, MAX -> 16_384;
        };
    }

    static boolean claude(Model model) {
        String id = (model.id() + " " + (model.name() == null ? "" : model.name())).toLowerCase(Locale.ROOT);
        return id.contains("claude");
    }

    /** Tool ids as Converse accepts them ({@code [a-zA-Z0-9_-]{1,64}}). */
    static String toolId(String id) {
        String clean = (id == null || id.isEmpty() ? "tool" : id).replaceAll("[^a-zA-Z0-9_-]", "_");
        return clean.length() > MAX_ID ? clean.substring(0, MAX_ID) : clean;
    }

    private static void message(ArrayNode messages, String role, ArrayNode content) {
        if (content.isEmpty()) {
            content.addObject().put("text", EMPTY);
        }
        messages.addObject().put("role", role).set("content", content);
    }

    private static void addPart(ArrayNode content, ContentBlock block) {
        if (block instanceof ContentBlock.Image image) {
            ObjectNode node = content.addObject().putObject("image");
            node.put("format", format(image.mimeType()));
            node.putObject("source").put("bytes", image.data()); // JSON blobs are base64
        } else if (block instanceof ContentBlock.Text text && !text.text().isBlank()) {
            content.addObject().put("text", text.text());
        }
    }

    private static void addAssistant(ArrayNode content, ContentBlock block, boolean claude) {
        if (block instanceof ContentBlock.Text text) {
            if (!text.text().isBlank()) {
                content.addObject().put("text", text.text());
            }
        } else if (block instanceof ContentBlock.ToolCall call) {
            ObjectNode use = content.addObject().putObject("toolUse");
            use.put("toolUseId", toolId(call.id())).put("name", call.name());
            use.set("input", call.arguments() == null ? Json.mapper().createObjectNode() : call.arguments());
        } else if (block instanceof ContentBlock.Thinking thinking) {
            String signature = thinking.thinkingSignature();
            if (Boolean.TRUE.equals(thinking.redacted())) {
                if (signature != null && !signature.isBlank()) {
                    content.addObject().putObject("reasoningContent").put("redactedContent", signature);
                }
            } else if (thinking.thinking() != null && !thinking.thinking().isBlank()) {
                if (claude && (signature == null || signature.isBlank())) {
                    content.addObject().put("text", thinking.thinking()); // Claude rejects unsigned reasoning
                } else {
                    ObjectNode text = content.addObject().putObject("reasoningContent").putObject("reasoningText")
                            .put("text", thinking.thinking());
                    if (claude) {
                        text.put("signature", signature);
                    }
                }
            }
        }
    }

    private static ObjectNode toolResult(ContextConverter.Result result) {
        ObjectNode node = Json.mapper().createObjectNode();
        ObjectNode tool = node.putObject("toolResult");
        tool.put("toolUseId", toolId(result.toolCallId()));
        ArrayNode content = tool.putArray("content");
        result.content().forEach(block -> addPart(content, block));
        if (content.isEmpty()) {
            content.addObject().put("text", EMPTY);
        }
        tool.put("status", result.isError() ? "error" : "success");
        return node;
    }

    private static String format(String mimeType) {
        return switch (mimeType == null ? "" : mimeType.toLowerCase(Locale.ROOT)) {
            case "image/jpeg", "image/jpg" -> "jpeg";
            case "image/gif" -> "gif";
            case "image/webp" -> "webp";
            default -> "png";
        };
    }
}
