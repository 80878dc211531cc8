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

    /**
     * @throws Invalid when {@code blocks} is no array (ACP's prompt is a list of content blocks), or
     *     a block cannot be used (undecodable image data), naming it
     */
    static PromptContent of(JsonNode blocks) {
        if (blocks == null || !blocks.isArray()) {
            throw new Invalid("prompt must be an array of content blocks, e.g. [{\"type\":\"text\",\"text\":\"…\"}]");
        }
        StringBuilder text = new StringBuilder();
        List<ContentBlock.Image> images = new ArrayList<>();
        int index = -1;
        for (JsonNode block : blocks) {
            index++;
            String type = AcpJson.textOf(block, "type");
            if (type == null) {
                continue;
            }
            switch (type) {
                case "text" -> append(text, AcpJson.textOf(block, "text"));
                case "image" -> {
                    String data = AcpJson.textOf(block, "data");
                    if (data != null) {
                        if (!isBase64(data)) {
                            throw new Invalid("image data is not valid base64 (content block " + index + ")");
                        }
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
        return new PromptContent(text.toString(), List.copyOf(images));
    }

    /**
     * Standard base64 (RFC 4648 §4, padded, whitespace between groups tolerated), checked without
     * decoding: the data may be megabytes.
     */
    static boolean isBase64(String data) {
        long symbols = 0;
        int padding = 0;
        for (int i = 0; i < data.length(); i++) {
            char c = data.charAt(i);
            if (c == '\n' || c == '\r' || c == ' ' || c == '\t') {
                continue;
            }
            if (c == '=') {
                padding++;
            } else if (padding > 0 || !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
                    || c == '+' || c == '/')) {
                return false; // a symbol after padding, or outside the alphabet
            }
            symbols++;
        }
        return symbols > 0 && symbols % 4 == 0 && padding <= 2;
    }

    /** A prompt block that cannot be used; the message names the block and the cause. */
    static final class Invalid extends IllegalArgumentException {
        Invalid(String message) {
            super(message);
        }
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
