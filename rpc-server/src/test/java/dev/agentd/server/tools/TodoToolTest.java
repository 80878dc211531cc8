package dev.agentd.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.runtime.CancellationToken;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The opt-in todo tool: the whole list each time, checked and bounded, answered in one line. */
class TodoToolTest {
    private static ToolResult call(String args) throws Exception {
        return new TodoTool().execute("t", Json.mapper().readTree(args), new CancellationToken(), o -> { });
    }

    private static String text(ToolResult result) {
        return ((ContentBlock.Text) result.content().get(0)).text();
    }

    @Test
    void aListIsCountedAndEchoedInItsDetails() throws Exception {
        ToolResult result = call("{\"todos\":[{\"content\":\" read the code \",\"status\":\"completed\",\"priority\":\"high\"},"
                + "{\"content\":\"fix it\",\"status\":\"in_progress\"},{\"content\":\"test\",\"status\":\"pending\"}]}");
        assertFalse(result.isError());
        assertEquals("Todo list updated: 3 items (1 completed, 1 in progress, 1 pending).", text(result));
        assertEquals("[{\"content\":\"read the code\",\"status\":\"completed\",\"priority\":\"high\"},"
                + "{\"content\":\"fix it\",\"status\":\"in_progress\"},{\"content\":\"test\",\"status\":\"pending\"}]",
                result.details().path("todos").toString());
        assertEquals("Todo list cleared.", text(call("{\"todos\":[]}")));
    }

    @Test
    void badListsAreRefusedNamingTheProblem() throws Exception {
        assertEquals("Invalid arguments for todo: 'todos' must be an array of {content, status, priority?}",
                text(call("{}")));
        assertEquals("Invalid arguments for todo: todos[0].status must be pending, in_progress or completed",
                text(call("{\"todos\":[{\"content\":\"x\",\"status\":\"done\"}]}")));
        assertEquals("Invalid arguments for todo: todos[0].priority must be high, medium or low",
                text(call("{\"todos\":[{\"content\":\"x\",\"status\":\"pending\",\"priority\":\"urgent\"}]}")));
        assertEquals("Invalid arguments for todo: todos[0].content must be a non-empty string",
                text(call("{\"todos\":[{\"content\":\" \",\"status\":\"pending\"}]}")));
        assertTrue(call("{\"todos\":[\"x\"]}").isError());
    }

    @Test
    void theListIsBounded() throws Exception {
        String item = "{\"content\":\"x\",\"status\":\"pending\"}";
        String many = "{\"todos\":[" + String.join(",", java.util.Collections.nCopies(TodoTool.MAX_ITEMS + 1, item)) + "]}";
        assertEquals("Invalid arguments for todo: at most 100 items (got 101)", text(call(many)));
        String big = "{\"todos\":[{\"content\":\"" + "y".repeat(TodoTool.MAX_CONTENT_CHARS + 1) + "\",\"status\":\"pending\"}]}";
        assertEquals("Invalid arguments for todo: todos[0].content is longer than 500 characters", text(call(big)));
        String exact = "{\"todos\":[" + String.join(",", java.util.Collections.nCopies(TodoTool.MAX_ITEMS, item)) + "]}";
        assertFalse(call(exact).isError());
    }

    @Test
    void optInOnly() {
        assertTrue(Tools.KNOWN.contains("todo"));
        assertFalse(Tools.DEFAULT.contains("todo"));
        assertEquals("todo", Tools.create(Path.of("/tmp"), List.of("todo")).get(0).name());
    }
}
