package dev.agentd.server.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.tools.ToolResult;
import dev.agentd.server.tools.Truncation;
import org.junit.jupiter.api.Test;

class McpResultsTest {
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

    private static ToolResult map(String json) throws Exception {
        return McpResults.toResult("srv", "tool", Json.mapper().readTree(json));
    }

    private static String text(ToolResult result) {
        return ((ContentBlock.Text) result.content().get(0)).text();
    }

    @Test
    void textImageResourceAndLinkBlocks() throws Exception {
        ToolResult result = map("""
                {"content": [{"type": "text", "text": "hello"},
                             {"type": "image", "data": "%s", "mimeType": "image/png"},
                             {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "inside"}},
                             {"type": "resource", "resource": {"uri": "file:///b.bin", "mimeType": "application/octet-stream", "blob": "AAAA"}},
                             {"type": "resource_link", "uri": "file:///c", "name": "c", "mimeType": "text/plain"}]}
                """.formatted(PNG));
        assertFalse(result.isError());
        String text = text(result);
        assertTrue(text.startsWith("hello\n[resource file:///a.txt]\ninside\n[binary resource file:///b.bin"), text);
        assertTrue(text.contains("[resource file:///c \"c\" (text/plain)]"), text);
        ContentBlock.Image image = assertInstanceOf(ContentBlock.Image.class, result.content().get(1));
        assertEquals("image/png", image.mimeType());
        assertEquals("srv", result.details().path("server").asText());
    }

    @Test
    void isErrorMakesAnErrorResult() throws Exception {
        assertTrue(map("{\"content\":[{\"type\":\"text\",\"text\":\"bad\"}],\"isError\":true}").isError());
    }

    @Test
    void structuredContentAloneIsShownAsJson() throws Exception {
        ToolResult result = map("{\"content\":[],\"structuredContent\":{\"sum\":3}}");
        assertEquals("{\"sum\":3}", text(result));
        assertEquals(3, result.structuredContent().path("sum").asInt());
    }

    @Test
    void hostileBlocksAreNamedNotPassedOn() throws Exception {
        ToolResult result = map("""
                {"content": [{"type": "image", "data": "not base64 !!", "mimeType": "image/png"},
                             {"type": "image", "data": "%s", "mimeType": "image/svg+xml"},
                             {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
                             {"type": "mystery\\u0007"}]}
                """.formatted(PNG));
        assertEquals(1, result.content().size());
        String text = text(result);
        assertTrue(text.contains("not shown"), text);
        assertTrue(text.contains("image/svg+xml") && text.contains("audio (audio/wav)") && text.contains("'mystery?'"), text);
    }

    @Test
    void hugeTextIsCutToTheToolBudget() throws Exception {
        String big = "line\n".repeat(100_000);
        ToolResult result = map(Json.mapper().writeValueAsString(
                Json.mapper().createObjectNode().set("content", Json.mapper().createArrayNode()
                        .add(Json.mapper().createObjectNode().put("type", "text").put("text", big)))));
        String text = text(result);
        assertTrue(text.length() < Truncation.MAX_BYTES + 200, "length " + text.length());
        assertTrue(text.contains("[MCP result truncated"), text.substring(text.length() - 100));
    }

    @Test
    void anEmptyResultSaysSo() throws Exception {
        assertEquals("(no output)", text(map("{\"content\":[]}")));
    }
}
