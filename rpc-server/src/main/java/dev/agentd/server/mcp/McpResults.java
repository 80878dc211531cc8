package dev.agentd.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.tools.ToolResult;
import dev.agentd.server.tools.Truncation;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * A {@code tools/call} result, as JSON from an untrusted server, turned into what the model sees:
 * text (with resources and links as text), images (at most {@link #MAX_IMAGES}, each within
 * {@link #MAX_IMAGE_BASE64} characters of base64, of a type providers accept); the text within the
 * tools' one output budget ({@link Truncation}). {@code isError} makes an error result. Pure.
 */
public final class McpResults {
    static final int MAX_IMAGES = 4;
    static final int MAX_IMAGE_BASE64 = 7 * 1024 * 1024;
    private static final Set<String> IMAGE_TYPES = Set.of("image/png", "image/jpeg", "image/gif", "image/webp");

    private McpResults() {}

    /** @param server and {@code tool} name the call in the details, for clients */
    public static ToolResult toResult(String server, String tool, JsonNode result) {
        StringBuilder text = new StringBuilder();
        List<ContentBlock> images = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (JsonNode block : result.path("content")) {
            String type = block.path("type").asText("");
            switch (type) {
                case "text" -> append(text, block.path("text").asText(""));
                case "image" -> image(block, images, dropped);
                case "audio" -> dropped.add("audio (" + mime(block) + ")");
                case "resource" -> resource(block.path("resource"), text);
                case "resource_link" -> append(text, "[resource " + bounded(block.path("uri").asText(""))
                        + (block.hasNonNull("name") ? " \"" + bounded(block.path("name").asText()) + "\"" : "")
                        + (block.hasNonNull("mimeType") ? " (" + mime(block) + ")" : "") + "]");
                default -> dropped.add("a block of type '" + bounded(type) + "'");
            }
            if (text.length() > 4 * Truncation.MAX_BYTES) {
                break; // the rest could not be shown anyway
            }
        }
        JsonNode structured = result.get("structuredContent");
        if (text.isEmpty() && structured != null && !structured.isNull()) {
            append(text, structured.toString());
        }
        if (!dropped.isEmpty()) {
            append(text, "[not shown: " + String.join(", ", dropped) + "]");
        }
        Truncation.Result cut = Truncation.head(text.toString());
        String shown = cut.content();
        if (cut.truncated()) {
            shown += "\n[MCP result truncated: " + cut.totalBytes() + " bytes, " + cut.totalLines() + " lines]";
        }
        List<ContentBlock> content = new ArrayList<>();
        if (!shown.isEmpty() || images.isEmpty()) {
            content.add(new ContentBlock.Text(shown.isEmpty() ? "(no output)" : shown));
        }
        content.addAll(images);
        ObjectNode details = Json.mapper().createObjectNode().put("server", server).put("tool", tool);
        details.set("truncation", cut.toJson());
        return new ToolResult(content, details, result.path("isError").asBoolean(false),
                structured != null && structured.isObject() && structured.toString().length() <= Truncation.MAX_BYTES
                        ? structured : null);
    }

    private static void image(JsonNode block, List<ContentBlock> images, List<String> dropped) {
        String data = block.path("data").asText("");
        String mime = mime(block);
        if (images.size() >= MAX_IMAGES) {
            dropped.add("an image beyond the first " + MAX_IMAGES);
        } else if (!IMAGE_TYPES.contains(mime)) {
            dropped.add("an image of type " + mime);
        } else if (data.isEmpty() || data.length() > MAX_IMAGE_BASE64 || !base64(data)) {
            dropped.add("an image that is empty, over " + MAX_IMAGE_BASE64 / (1024 * 1024) + " MB or not base64");
        } else {
            images.add(new ContentBlock.Image(data, mime));
        }
    }

    private static void resource(JsonNode resource, StringBuilder text) {
        String uri = bounded(resource.path("uri").asText(""));
        if (resource.hasNonNull("text")) {
            append(text, "[resource " + uri + "]\n" + resource.path("text").asText(""));
        } else {
            int length = resource.path("blob").asText("").length();
            append(text, "[binary resource " + uri + " (" + mime(resource) + ", about " + length * 3 / 4 + " bytes)]");
        }
    }

    private static boolean base64(String data) {
        try {
            Base64.getDecoder().decode(data.length() > 4096 ? data.substring(0, 4096) : data);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String mime(JsonNode block) {
        return bounded(block.path("mimeType").asText("unknown type"));
    }

    private static void append(StringBuilder text, String part) {
        if (!text.isEmpty()) {
            text.append('\n');
        }
        text.append(part);
    }

    /** A short field from the server, one line. */
    private static String bounded(String value) {
        return McpConfig.printable(value.length() > 200 ? value.substring(0, 200) : value);
    }
}
