package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.ContentBlock;
import java.util.ArrayList;
import java.util.List;

/**
 * An ACP prompt's content blocks as agentd's prompt (issue 16 §1): text as is, images as images,
 * resource links and embedded text resources as text naming them. Pure.
 */
record PromptContent(String text, List<ContentBlock.Image> images) {

    static PromptContent of(JsonNode blocks) {
        StringBuilder text = new StringBuilder();
        List<ContentBlock.Image> images = new ArrayList<>();
        if (blocks != null && blocks.isArray()) {
            for (JsonNode block : blocks) {
                String type = AcpJson.textOf(block, "type");
                if (type == null) {
                    continue;
                }
                switch (type) {
                    case "text" -> append(text, AcpJson.textOf(block, "text"));
                    case "image" -> {
                        String data = AcpJson.textOf(block, "data");
                        if (data != null) {
                            images.add(new ContentBlock.Image(data, AcpJson.textOf(block, "mimeType")));
                        }
                    }
                    case "resource_link" -> append(text, "[" + name(block) + "](" + AcpJson.textOf(block, "uri") + ")");
                    case "resource" -> {
                        JsonNode resource = block.path("resource");
                        String body = AcpJson.textOf(resource, "text");
                        append(text, "<resource uri=\"" + AcpJson.textOf(resource, "uri") + "\">\n"
                                + (body == null ? "" : body) + "\n</resource>");
                    }
                    default -> { } // audio and future kinds: not advertised, so not sent
                }
            }
        }
        return new PromptContent(text.toString(), List.copyOf(images));
    }

    private static String name(JsonNode block) {
        String name = AcpJson.textOf(block, "name");
        return name != null ? name : String.valueOf(AcpJson.textOf(block, "uri"));
    }

    private static void append(StringBuilder text, String part) {
        if (part == null) {
            return;
        }
        if (text.length() > 0) {
            text.append('\n');
        }
        text.append(part);
    }
}
