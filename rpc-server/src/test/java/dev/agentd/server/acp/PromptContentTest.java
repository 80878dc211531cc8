package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import org.junit.jupiter.api.Test;

/** ACP prompt blocks → agentd's prompt text and images. */
class PromptContentTest {

    @Test
    void textImagesAndResourcesBecomeThePrompt() {
        ArrayNode blocks = AcpJson.array();
        blocks.add(AcpJson.text("Look at"));
        blocks.addObject().put("type", "resource_link").put("uri", "file:///w/a.txt").put("name", "a.txt");
        blocks.addObject().put("type", "image").put("data", "AAAA").put("mimeType", "image/png");
        blocks.addObject().put("type", "resource").putObject("resource").put("uri", "file:///w/b.txt").put("text", "B");
        blocks.addObject().put("type", "audio").put("data", "x");
        blocks.add(AcpJson.object());
        PromptContent content = PromptContent.of(blocks);
        assertEquals("Look at\n[a.txt](file:///w/a.txt)\n<resource uri=\"file:///w/b.txt\">\nB\n</resource>",
                content.text());
        assertEquals(1, content.images().size());
        assertEquals("image/png", content.images().get(0).mimeType());
    }

    @Test
    void noBlocksIsAnEmptyPromptAndNoArrayIsInvalid() {
        assertEquals("", PromptContent.of(AcpJson.array()).text());
        assertEquals(0, PromptContent.of(AcpJson.array()).images().size());
        for (JsonNode notAnArray : new JsonNode[] {null, AcpJson.object(), AcpJson.F.textNode("just a string")}) {
            PromptContent.Invalid e = org.junit.jupiter.api.Assertions.assertThrows(PromptContent.Invalid.class,
                    () -> PromptContent.of(notAnArray));
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("prompt must be an array"),
                    e.getMessage());
        }
    }

    @Test
    void imageDataMustBeBase64() {
        for (String good : new String[] {"AAAA", "iVBORw0KGgo=", "QQ==", "AAAA\nBBBB"}) {
            org.junit.jupiter.api.Assertions.assertTrue(PromptContent.isBase64(good), good);
        }
        for (String bad : new String[] {"", "AAA", "A===", "QQ==QQ==", "%%%%", "AA AA!", "===="}) {
            org.junit.jupiter.api.Assertions.assertFalse(PromptContent.isBase64(bad), bad);
        }
    }
}
