package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the real jar: a tool call that blows the run thread's stack (a group alternation over a
 * 100 KB minified line makes java.util.regex recurse once per repetition) ends as a tool result;
 * the run ends, {@code get_state} is idle and the next prompt runs.
 */
class RunsAlwaysEndIT {
    @TempDir
    Path dir;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
            assertEquals(List.of(), daemon.nonJsonLines());
        }
    }

    @Test
    void aToolThatOverflowsTheStackDoesNotWedgeTheSession() throws IOException {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("min.js"), "ab".repeat(50_000) + "\n");
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[{\"toolCall\":{\"name\":\"grep\",\"arguments\":{\"pattern\":\"(ab|cd)+x\","
                + "\"path\":\"min.js\"}}},{\"text\":\"searched\"},{\"text\":\"still here\"}]");
        daemon = DaemonProcess.start(agentDir, work, "--faux-script", script.toString(), "--no-session",
                "--tools", "read,grep");

        daemon.send(command("prompt", "p1", "message", "search"));
        JsonNode toolEnd = daemon.awaitNth("tool_execution_end", 1);
        assertEquals("grep", toolEnd.path("toolName").asText());
        // "Tool grep failed: StackOverflowError" unless grep learns to refuse such patterns itself
        assertTrue(toolEnd.path("isError").asBoolean(), toolEnd.toString());
        JsonNode firstEnd = daemon.awaitNth("agent_end", 1);
        assertFalse(firstEnd.path("willRetry").asBoolean());
        JsonNode state = daemon.request(command("get_state", "s1"));
        assertFalse(state.path("data").path("isStreaming").asBoolean(), state.toString());

        daemon.send(command("prompt", "p2", "message", "again"));
        JsonNode secondEnd = daemon.awaitNth("agent_end", 2);
        JsonNode messages = secondEnd.path("messages");
        assertEquals("still here", messages.get(messages.size() - 1).path("content").path(0).path("text").asText());
        assertTrue(daemon.response("p2").path("success").asBoolean());
    }
}
