package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import dev.agentd.server.wire.RpcOutput;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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

    /** The requests written so far, in order. */
    private static List<JsonNode> requests(ByteArrayOutputStream out) {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).map(line -> {
                try {
                    return Json.mapper().readTree(line);
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }).toList();
        }
    }

    private static JsonNode awaitRequest(ByteArrayOutputStream out, String method) {
        return Waits.await().until(() -> requests(out).stream()
                .filter(r -> method.equals(r.path("method").asText())).findFirst().orElse(null), r -> r != null);
    }

    private static void answer(AcpConnection connection, JsonNode request, String result) throws Exception {
        connection.answered(Json.mapper().readTree("{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id")
                + ",\"result\":" + result + "}"));
    }

    @Test
    void aCancelledRunKillsTheTerminalThenReadsAndReleasesIt() throws Exception {
        // with a timeout too: cancelling must not wait for it
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AcpConnection connection = new AcpConnection(new RpcOutput(new JsonlWriter(out, Json.mapper()), () -> { }));
        Tool local = new Tool() {
            @Override
            public dev.agentd.server.ai.ToolDefinition definition() {
                return new dev.agentd.server.ai.ToolDefinition("bash", "runs", Json.mapper().createObjectNode());
            }

            @Override
            public ToolResult execute(String id, JsonNode args, CancellationToken cancel,
                    java.util.function.Consumer<dev.agentd.protocol.event.ToolOutput> onUpdate) {
                throw new AssertionError("the local bash must not run");
            }
        };
        EditorTerminal terminal = new EditorTerminal(local, connection, () -> "s1", Path.of("/work"));
        CancellationToken cancel = new CancellationToken();
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(() -> {
            try {
                return terminal.execute("c1", Json.mapper().readTree("{\"command\":\"sleep 100\",\"timeout\":600}"), cancel,
                        output -> { });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        JsonNode create = awaitRequest(out, "terminal/create");
        assertEquals("bash", create.path("params").path("command").asText());
        assertEquals("[\"-c\",\"sleep 100\"]", create.path("params").path("args").toString());
        assertEquals("/work", create.path("params").path("cwd").asText());
        answer(connection, create, "{\"terminalId\":\"t1\"}");
        awaitRequest(out, "terminal/wait_for_exit");
        // A6/Z6: the terminal was embedded in the card before the wait, so the editor streams it live
        List<JsonNode> written = requests(out);
        int embedAt = -1;
        for (int i = 0; i < written.size(); i++) {
            if ("session/update".equals(written.get(i).path("method").asText())) {
                embedAt = i;
            }
        }
        assertTrue(embedAt >= 0, written.toString());
        JsonNode embed = written.get(embedAt).path("params");
        assertEquals("s1", embed.path("sessionId").asText());
        assertEquals("tool_call_update", embed.path("update").path("sessionUpdate").asText());
        assertEquals("c1", embed.path("update").path("toolCallId").asText());
        assertEquals("{\"type\":\"terminal\",\"terminalId\":\"t1\"}", embed.path("update").path("content").path(0).toString());
        assertTrue(embedAt < written.indexOf(awaitRequest(out, "terminal/wait_for_exit")), "embedded before the wait");
        cancel.cancel();
        JsonNode kill = awaitRequest(out, "terminal/kill");
        assertEquals("t1", kill.path("params").path("terminalId").asText());
        answer(connection, awaitRequest(out, "terminal/output"), "{\"output\":\"partial\",\"truncated\":false}");
        ToolResult done = result.get();
        assertEquals("partial\n\nCommand aborted", text(done));
        assertTrue(done.isError());
        assertEquals("t1", done.details().path(EditorTerminal.TERMINAL_ID).asText(), "the card's end keeps it");
        assertEquals("t1", awaitRequest(out, "terminal/release").path("params").path("terminalId").asText());
    }
}
