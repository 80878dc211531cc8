package dev.agentd.server.ai.gemini;

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
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The JSON body of a {@code streamGenerateContent} request: {@code contents} (roles user and
 * model; thought, text and {@code functionCall} parts with their {@code thoughtSignature},
 * {@code functionResponse} parts answering them), {@code systemInstruction},
 * {@code tools.functionDeclarations} and {@code generationConfig} (output limit, thinking).
 *
 * <p>Signatures are replayed only for this model (ContextConverter drops the others) and only
 * when they look like the base64 Gemini sends: a thinking block without one (its marker) goes
 * back as a thought part without a signature, as pi does.
 */
public final class GeminiRequest {
    static final String TOOL_IMAGES_NOTE = "Attached image(s) from tool result:";
    /** Gemini 3 and later pair calls and responses by id; ids there must be short and plain. */
    static final int MAX_TOOL_ID = 64;
    private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]++={0,2}+");
    private static final Pattern MAJOR = Pattern.compile("^gemini(?:-live)?-(\\d{1,3}+)");
    /** Our own tools' schemas, but still walked with a bound. */
    private static final int MAX_SCHEMA_DEPTH = 64;
    /** Keywords whose object maps names (which may be "const" or "$schema") to schemas. */
    private static final Set<String> NAMED_SCHEMAS = Set.of("properties", "patternProperties", "$defs",
            "definitions");

    private GeminiRequest() {}

    public static ObjectNode build(StreamRequest request) {
        Model model = request.model();
        ObjectNode body = Json.mapper().createObjectNode();
        ArrayNode contents = body.putArray("contents");
        boolean images = model.input().contains("image");
        for (ContextConverter.Turn turn : ContextConverter.convert(request.messages(), model)) {
            if (turn instanceof ContextConverter.UserTurn user) {
                ArrayNode parts = contents.addObject().put("role", "user").putArray("parts");
                user.content().forEach(block -> parts.add(part(block)));
            } else if (turn instanceof ContextConverter.AssistantTurn assistant) {
                assistant(contents, assistant, model);
            } else if (turn instanceof ContextConverter.ToolResults tools) {
                toolResults(contents, tools, model, images);
            } else {
                throw new IllegalStateException("unhandled turn: " + turn);
            }
        }
        if (request.systemPrompt() != null && !request.systemPrompt().isBlank()) {
            body.putObject("systemInstruction").putArray("parts").addObject().put("text", request.systemPrompt());
        }
        if (!request.tools().isEmpty()) {
            ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode declaration = declarations.addObject();
                declaration.put("name", tool.name());
                declaration.put("description", tool.description() == null ? "" : tool.description());
                declaration.set("parametersJsonSchema", schema(tool.schemaOrEmpty(), 0));
            }
        }
        ObjectNode config = Json.mapper().createObjectNode();
        if (request.maxOutputTokens() > 0) {
            config.put("maxOutputTokens", request.maxOutputTokens());
        }
        ObjectNode thinking = thinkingConfig(model, request.thinkingLevel());
        if (thinking != null) {
            config.set("thinkingConfig", thinking);
        }
        if (!config.isEmpty()) {
            body.set("generationConfig", config);
        }
        return body;
    }

    /**
     * Gemini 3 takes a {@code thinkingLevel}, 2.5 a {@code thinkingBudget} (pi's budgets). Off is
     * budget 0, except where thinking cannot be turned off (2.5 Pro, Gemini 3): there the lowest
     * setting, without thought summaries. Null for a model without reasoning.
     */
    static ObjectNode thinkingConfig(Model model, ThinkingLevel requested) {
        if (!model.reasoning()) {
            return null;
        }
        String id = model.id().toLowerCase(Locale.ROOT);
        ThinkingLevel level = requested == null ? ThinkingLevel.OFF : ThinkingSupport.clamp(model, requested);
        ObjectNode config = Json.mapper().createObjectNode();
        boolean pro = id.contains("pro");
        if (usesThinkingLevel(id)) {
            config.put("thinkingLevel", switch (level) {
                case OFF, MINIMAL -> pro ? "LOW" : "MINIMAL";
                case LOW -> "LOW";
                case MEDIUM -> pro ? "HIGH" : "MEDIUM";
                case HIGH, XHIGH, MAX -> "HIGH";
            });
        } else {
            config.put("thinkingBudget", level == ThinkingLevel.OFF ? (id.contains("2.5-pro") ? 128 : 0)
                    : budget(id, level));
        }
        if (level != ThinkingLevel.OFF) {
            config.put("includeThoughts", true);
        }
        return config;
    }

    static boolean usesThinkingLevel(String id) {
        Integer major = majorVersion(id);
        return (major != null && major >= 3) || id.equals("gemini-flash-latest") || id.equals("gemini-flash-lite-latest");
    }

    /** pi's budgets for 2.5; -1 (dynamic) for other models. */
    private static int budget(String id, ThinkingLevel level) {
        int index = switch (level) {
            case OFF, MINIMAL -> 0;
            case LOW -> 1;
            case MEDIUM -> 2;
            case HIGH, XHIGH, MAX -> 3;
        };
        int[] budgets = id.contains("2.5-pro") ? new int[] {128, 2048, 8192, 32768}
                : id.contains("2.5-flash-lite") ? new int[] {512, 2048, 8192, 24576}
                : id.contains("2.5-flash") ? new int[] {128, 2048, 8192, 24576} : null;
        return budgets == null ? -1 : budgets[index];
    }

    static Integer majorVersion(String id) {
        var matcher = MAJOR.matcher(id.toLowerCase(Locale.ROOT));
        return matcher.find() ? Integer.valueOf(matcher.group(1)) : null;
    }

    /** Ids go back only to models that pair by id (Gemini 3+); older ones pair by name and order. */
    static boolean sendsToolIds(Model model) {
        Integer major = majorVersion(model.id());
        return major != null && major >= 3;
    }

    static String toolId(String id) {
        String value = id == null || id.isEmpty() ? "call" : id.replaceAll("[^A-Za-z0-9_-]", "_");
        return value.length() > MAX_TOOL_ID ? value.substring(0, MAX_TOOL_ID) : value;
    }

    static boolean validSignature(String signature) {
        return signature != null && !signature.isEmpty() && signature.length() % 4 == 0
                && BASE64.matcher(signature).matches();
    }

    private static ObjectNode part(ContentBlock block) {
        ObjectNode part = Json.mapper().createObjectNode();
        if (block instanceof ContentBlock.Image image) {
            part.putObject("inlineData").put("mimeType", image.mimeType()).put("data", image.data());
        } else {
            part.put("text", ((ContentBlock.Text) block).text());
        }
        return part;
    }

    private static void assistant(ArrayNode contents, ContextConverter.AssistantTurn turn, Model model) {
        ArrayNode parts = Json.mapper().createArrayNode();
        for (ContentBlock block : turn.content()) {
            if (block instanceof ContentBlock.Text text) {
                signed(parts.addObject().put("text", text.text()), text.textSignature());
            } else if (block instanceof ContentBlock.Thinking thinking) {
                if (!Boolean.TRUE.equals(thinking.redacted())) {
                    signed(parts.addObject().put("thought", true)
                            .put("text", thinking.thinking() == null ? "" : thinking.thinking()),
                            thinking.thinkingSignature());
                }
            } else if (block instanceof ContentBlock.ToolCall call) {
                ObjectNode part = parts.addObject();
                ObjectNode function = part.putObject("functionCall");
                function.put("name", call.name());
                function.set("args", call.arguments() != null && call.arguments().isObject() ? call.arguments()
                        : Json.mapper().createObjectNode());
                if (sendsToolIds(model)) {
                    function.put("id", toolId(call.id()));
                }
                signed(part, call.thoughtSignature());
            }
        }
        if (!parts.isEmpty()) {
            contents.addObject().put("role", "model").set("parts", parts);
        }
    }

    private static void signed(ObjectNode part, String signature) {
        if (validSignature(signature)) {
            part.put("thoughtSignature", signature);
        }
    }

    /** One user content of {@code functionResponse} parts; images follow in a user content of their own. */
    private static void toolResults(ArrayNode contents, ContextConverter.ToolResults turn, Model model,
            boolean images) {
        ArrayNode parts = contents.addObject().put("role", "user").putArray("parts");
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
            String value = text.length() > 0 ? text.toString() : hasImage ? "(see attached image)" : "";
            ObjectNode response = parts.addObject().putObject("functionResponse");
            response.put("name", result.toolName() == null ? "" : result.toolName());
            response.putObject("response").put(result.isError() ? "error" : "output", value);
            if (sendsToolIds(model)) {
                response.put("id", toolId(result.toolCallId()));
            }
        }
        if (!attached.isEmpty()) {
            ArrayNode imageParts = contents.addObject().put("role", "user").putArray("parts");
            imageParts.addObject().put("text", TOOL_IMAGES_NOTE);
            attached.forEach(image -> imageParts.add(part(image)));
        }
    }

    /**
     * The tool schema as {@code parametersJsonSchema} (JSON Schema, not the OpenAPI subset of
     * {@code parameters}): {@code $schema} dropped, {@code const} sent as a one-value {@code enum},
     * which Gemini rejects less often.
     */
    static JsonNode schema(JsonNode node, int depth) {
        if (depth > MAX_SCHEMA_DEPTH) {
            return Json.mapper().createObjectNode();
        }
        if (node.isArray()) {
            ArrayNode out = Json.mapper().createArrayNode();
            node.forEach(item -> out.add(schema(item, depth + 1)));
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        ObjectNode out = Json.mapper().createObjectNode();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String key = field.getKey();
            if (key.equals("$schema")) {
                continue;
            }
            if (key.equals("const") && !node.has("enum")) {
                out.putArray("enum").add(field.getValue());
            } else if (NAMED_SCHEMAS.contains(key) && field.getValue().isObject()) {
                ObjectNode named = out.putObject(key); // names, each mapping to a schema
                field.getValue().properties().forEach(entry -> named.set(entry.getKey(),
                        schema(entry.getValue(), depth + 1)));
            } else {
                out.set(key, schema(field.getValue(), depth + 1));
            }
        }
        return out;
    }
}
