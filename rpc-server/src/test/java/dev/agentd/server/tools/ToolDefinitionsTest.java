package dev.agentd.server.tools;

import static dev.agentd.server.tools.ToolCalls.call;
import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.ai.ToolDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Schemas, argument validation and the {@link Tools} factory. */
class ToolDefinitionsTest {
    @TempDir
    Path dir;

    @Test
    void everyToolHasAnObjectSchemaWithPropertiesAndRequired() {
        List<Tool> tools = Tools.create(dir, Tools.KNOWN);
        assertEquals(Tools.KNOWN, tools.stream().map(Tool::name).toList());
        for (Tool tool : tools) {
            ToolDefinition definition = tool.definition();
            JsonNode schema = definition.parameters();
            assertEquals("object", schema.path("type").asText(), tool.name());
            assertTrue(schema.path("properties").isObject(), tool.name());
            assertTrue(schema.path("required").isArray(), tool.name());
            assertFalse(definition.description().isBlank(), tool.name());
            for (JsonNode required : schema.path("required")) {
                assertTrue(schema.path("properties").has(required.asText()), tool.name() + " " + required);
            }
            schema.path("properties").forEach(p -> {
                assertTrue(p.path("type").isTextual(), tool.name());
                assertTrue(p.path("description").isTextual(), tool.name());
            });
        }
    }

    @Test
    void requiredFieldsAreListed() {
        Tool edit = Tools.create(dir, List.of("edit")).get(0);
        assertEquals("[\"path\",\"oldText\",\"newText\"]", edit.definition().parameters().path("required").toString());
        Tool ls = Tools.create(dir, List.of("ls")).get(0);
        assertEquals(0, ls.definition().parameters().path("required").size());
    }

    @Test
    void aMissingArgumentIsNamed() throws Exception {
        Tool read = new ReadTool(new PathResolver(dir));
        ToolResult result = call(read, "{}");
        assertTrue(result.isError());
        assertEquals("Invalid arguments for read: 'path' is required", text(result));
        ToolResult nullPath = call(read, "{\"path\":null}");
        assertEquals("Invalid arguments for read: 'path' is required", text(nullPath));
    }

    @Test
    void mistypedArgumentsAreNamedTogether() throws Exception {
        Tool read = new ReadTool(new PathResolver(dir));
        ToolResult result = call(read, "{\"path\":[\"a\"],\"offset\":\"abc\",\"limit\":1.5}");
        assertTrue(result.isError());
        assertEquals("Invalid arguments for read: 'path' must be a string; 'offset' must be an integer; "
                + "'limit' must be an integer", text(result));
        ToolResult bool = call(new GrepTool(new PathResolver(dir)), "{\"pattern\":\"x\",\"ignoreCase\":\"yes\"}");
        assertEquals("Invalid arguments for grep: 'ignoreCase' must be a boolean", text(bool));
    }

    @Test
    void scalarSpellingsAreAccepted() throws Exception {
        Files.writeString(dir.resolve("f.txt"), "a\nb\nc\n");
        ToolResult result = call(new ReadTool(new PathResolver(dir)), "{\"path\":\"f.txt\",\"offset\":\"2\",\"limit\":1.0}");
        assertFalse(result.isError(), text(result));
        assertTrue(text(result).startsWith("b\n"), text(result));
    }

    @Test
    void outOfRangeNumbersAndNonObjectsAreRejected() throws Exception {
        Tool read = new ReadTool(new PathResolver(dir));
        assertEquals("Invalid arguments for read: 'offset' must be at least 1",
                text(call(read, "{\"path\":\"f\",\"offset\":0}")));
        assertEquals("Invalid arguments for read: arguments must be a JSON object", text(call(read, "[1]")));
    }

    @Test
    void toolsAreCreatedInTheGivenOrderWithoutDuplicates() {
        assertEquals(List.of("bash", "read"),
                Tools.create(dir, List.of("bash", "read", " bash")).stream().map(Tool::name).toList());
        assertEquals(List.of("read", "write", "edit", "bash"),
                Tools.create(dir, Tools.DEFAULT).stream().map(Tool::name).toList());
    }

    @Test
    void anUnknownToolNameIsRejectedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tools.create(dir, List.of("read", "frobnicate")));
        assertTrue(e.getMessage().contains("'frobnicate'"), e.getMessage());
        assertTrue(e.getMessage().contains("read, write, edit, bash, ls, grep, find"), e.getMessage());
    }
}
