package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.tools.ToolResult;
import org.junit.jupiter.api.Test;

/** The editor terminal's result reads like the local bash tool's, for every way a command ends. */
class EditorTerminalTest {
    private static String text(ToolResult result) {
        return ((ContentBlock.Text) result.content().get(0)).text();
    }

    @Test
    void everyEndingReadsLikeTheLocalTool() {
        var ok = Json.mapper().createObjectNode().put("exitCode", 0);
        var failed = Json.mapper().createObjectNode().put("exitCode", 3);
        var killed = Json.mapper().createObjectNode().putNull("exitCode").put("signal", "SIGTERM");
        ToolResult done = EditorTerminal.result("hello\n", false, ok, false);
        assertEquals("hello\n", text(done));
        assertFalse(done.isError());
        assertEquals("(no output)", text(EditorTerminal.result("", false, ok, false)));
        ToolResult exit3 = EditorTerminal.result("out", false, failed, false);
        assertEquals("out\n\nCommand exited with code 3", text(exit3));
        assertTrue(exit3.isError());
        assertEquals("Command killed by signal SIGTERM", text(EditorTerminal.result("", false, killed, false)));
        assertEquals("partial\n\nCommand aborted", text(EditorTerminal.result("partial", false, null, true)));
        assertEquals("Command timed out", text(EditorTerminal.result("", false, null, false)));
        assertTrue(text(EditorTerminal.result("tail", true, ok, false)).contains("[Output truncated by the editor"));
    }
}
