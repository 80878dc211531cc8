package dev.agentd.server.tools;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.command.FauxStep;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.SessionHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in tools driven by the agent loop: results, streamed updates and abort. */
class ToolsInSessionTest {
    @TempDir
    Path dir;

    private SessionHarness harness(Path cwd, List<String> names) {
        SessionHarness.Builder builder = SessionHarness.builder(dir);
        Tools.create(cwd, names).forEach(builder::tool);
        return builder.build();
    }

    @Test
    void writeThenReadThroughTheLoop() throws Exception {
        Path cwd = Files.createDirectories(dir.resolve("project"));
        try (SessionHarness harness = harness(cwd, Tools.DEFAULT)) {
            harness.enqueue(
                    FauxStep.toolCall("write", Json.mapper().createObjectNode().put("path", "notes/a.txt")
                            .put("content", "hello")),
                    FauxStep.toolCall("read", Json.mapper().createObjectNode().put("path", "notes/a.txt")),
                    FauxStep.toolCall("read", Json.mapper().createObjectNode()),
                    FauxStep.text("done"));
            await().until(harness.session.prompt("go")::isDone);
            List<AgentEvent.ToolExecutionEnd> ends = harness.events(AgentEvent.ToolExecutionEnd.class);
            assertEquals(3, ends.size());
            assertEquals("Successfully wrote 5 bytes to notes/a.txt", ToolCalls.text(ends.get(0).result()));
            assertEquals("hello", ToolCalls.text(ends.get(1).result()));
            assertFalse(ends.get(1).isError());
            assertTrue(ends.get(2).isError());
            assertEquals("Invalid arguments for read: 'path' is required", ToolCalls.text(ends.get(2).result()));
        }
    }

    @Test
    void bashStreamsUpdatesAndDiesWithAbort() throws Exception {
        try (SessionHarness harness = harness(dir, List.of("bash"))) {
            harness.enqueue(FauxStep.toolCall("bash", Json.mapper().createObjectNode()
                    .put("command", "echo shell=$$; exec sleep 1000")), FauxStep.text("never reached"));
            CompletableFuture<Void> run = harness.session.prompt("run it");
            harness.awaitEvent(e -> e instanceof AgentEvent.ToolExecutionUpdate u
                    && ToolCalls.text(u.partialResult()).contains("shell="));
            String update = harness.events(AgentEvent.ToolExecutionUpdate.class).get(0).partialResult().content()
                    .toString();
            Matcher m = Pattern.compile("shell=(\\d+)").matcher(update);
            assertTrue(m.find(), update);
            long pid = Long.parseLong(m.group(1));
            assertTrue(BashToolTest.running(pid));

            harness.session.abort();
            await().until(run::isDone);
            AgentEvent.ToolExecutionEnd end = harness.events(AgentEvent.ToolExecutionEnd.class).get(0);
            assertTrue(end.isError());
            assertTrue(ToolCalls.text(end.result()).endsWith("Command aborted"), ToolCalls.text(end.result()));
            await().until(() -> !BashToolTest.running(pid));
        }
    }
}
