package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.Waits;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolResult;
import dev.agentd.server.wire.RpcOutput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adversarial N6 at the permission request: the real target is what the user is asked about, with
 * a note when it lies outside the project; "always allow" given for in-project writes does not
 * cover one that leads out through a symbolic link.
 */
class EditorToolsTest {
    @TempDir
    Path tmp;

    private static List<JsonNode> requests(ByteArrayOutputStream out) {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).map(line -> {
                try {
                    return Json.mapper().readTree(line);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }).filter(r -> "session/request_permission".equals(r.path("method").asText())).toList();
        }
    }

    @Test
    void anOutsideTargetIsNamedAndAskedEvenAfterAlwaysAllow() throws Exception {
        Path base = tmp.toRealPath();
        Path project = Files.createDirectories(base.resolve("proj"));
        Path outside = Files.createDirectories(base.resolve("outside"));
        Files.createSymbolicLink(project.resolve("link"), outside);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AcpConnection connection = new AcpConnection(new RpcOutput(new JsonlWriter(out, Json.mapper()), () -> { }));
        AtomicInteger ran = new AtomicInteger();
        Tool write = new Tool() {
            @Override
            public ToolDefinition definition() {
                return new ToolDefinition("write", "writes", Json.mapper().createObjectNode());
            }

            @Override
            public ToolResult execute(String id, JsonNode args, CancellationToken cancel,
                    Consumer<dev.agentd.protocol.event.ToolOutput> onUpdate) {
                ran.incrementAndGet();
                return ToolResult.text("wrote");
            }
        };
        Tool asking = new EditorTools(connection, () -> "s1", project, true, UnaryOperator.identity()).decorate(List.of(write)).get(0);

        CompletableFuture<ToolResult> first = run(asking, "{\"path\":\"a.txt\",\"content\":\"x\"}");
        JsonNode request = Waits.await().until(() -> requests(out), list -> list.size() == 1).get(0);
        assertEquals("Write a.txt", request.path("params").path("toolCall").path("title").asText());
        assertTrue(request.path("params").path("toolCall").path("content").isMissingNode(), "nothing to warn about");
        answer(connection, request, "allow_always");
        first.get();

        run(asking, "{\"path\":\"b.txt\",\"content\":\"x\"}").get();
        assertEquals(2, ran.get());
        assertEquals(1, requests(out).size(), "always allowed inside the project");

        CompletableFuture<ToolResult> planted = run(asking, "{\"path\":\"link/planted.txt\",\"content\":\"x\"}");
        JsonNode again = Waits.await().until(() -> requests(out), list -> list.size() == 2).get(1);
        JsonNode call = again.path("params").path("toolCall");
        assertEquals("Write " + outside.resolve("planted.txt") + " (outside the project)", call.path("title").asText());
        assertEquals(outside.resolve("planted.txt").toString(), call.path("locations").path(0).path("path").asText());
        String note = call.path("content").path(0).path("content").path("text").asText();
        assertTrue(note.startsWith("Outside the project") && note.contains(outside.resolve("planted.txt").toString()),
                call.toString());
        answer(connection, again, "reject_once");
        assertTrue(planted.get().isError());
        assertEquals(2, ran.get(), "rejected: not run");
    }

    private static List<JsonNode> lines(ByteArrayOutputStream out) {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).map(line -> {
                try {
                    return Json.mapper().readTree(line);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }).toList();
        }
    }

    private static Tool tool(String name, AtomicInteger ran) {
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return new ToolDefinition(name, name, Json.mapper().createObjectNode());
            }

            @Override
            public ToolResult execute(String id, JsonNode args, CancellationToken cancel,
                    Consumer<dev.agentd.protocol.event.ToolOutput> onUpdate) {
                ran.incrementAndGet();
                return ToolResult.text("ran");
            }
        };
    }

    /** A11: the card stays pending while the user decides; in_progress follows the allow, then the run. */
    @Test
    void theCallRunsOnlyAfterTheAllowAndIsAnnouncedRunningThen() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AcpConnection connection = new AcpConnection(new RpcOutput(new JsonlWriter(out, Json.mapper()), () -> { }));
        AtomicInteger ran = new AtomicInteger();
        EditorTools tools = new EditorTools(connection, () -> "s1", tmp, true, UnaryOperator.identity());
        assertTrue(tools.asksFirst("bash") && !tools.asksFirst("read"));
        assertTrue(!new EditorTools(connection, () -> "s1", tmp, false, UnaryOperator.identity()).asksFirst("bash"));
        Tool asking = tools.decorate(List.of(tool("bash", ran))).get(0);
        CompletableFuture<ToolResult> result = run(asking, "{\"command\":\"ls\"}");
        JsonNode request = Waits.await().until(() -> requests(out), list -> list.size() == 1).get(0);
        assertTrue(lines(out).stream().noneMatch(l -> "session/update".equals(l.path("method").asText())),
                "nothing says in_progress before the answer");
        answer(connection, request, "allow_once");
        assertEquals("ran", ((dev.agentd.protocol.message.ContentBlock.Text) result.get().content().get(0)).text());
        JsonNode running = lines(out).stream().filter(l -> "session/update".equals(l.path("method").asText()))
                .findFirst().orElseThrow().path("params");
        assertEquals("s1", running.path("sessionId").asText());
        assertEquals("in_progress", running.path("update").path("status").asText());
        assertEquals("c", running.path("update").path("toolCallId").asText());
    }

    /** A11: session/cancel while the user decides ends the call with a sentence, not an exception's name. */
    @Test
    void aCancelDuringTheAskFailsTheCallReadably() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AcpConnection connection = new AcpConnection(new RpcOutput(new JsonlWriter(out, Json.mapper()), () -> { }));
        AtomicInteger ran = new AtomicInteger();
        Tool asking = new EditorTools(connection, () -> "s1", tmp, true, UnaryOperator.identity())
                .decorate(List.of(tool("bash", ran))).get(0);
        CancellationToken cancel = new CancellationToken();
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(() -> {
            try {
                return asking.execute("c", Json.mapper().readTree("{\"command\":\"ls\"}"), cancel, update -> { });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Waits.await().until(() -> requests(out), list -> list.size() == 1);
        cancel.cancel();
        ToolResult done = result.get();
        assertTrue(done.isError());
        assertEquals("Cancelled while waiting for permission to run this bash call.",
                ((dev.agentd.protocol.message.ContentBlock.Text) done.content().get(0)).text());
        assertEquals(0, ran.get());
    }

    private static CompletableFuture<ToolResult> run(Tool tool, String args) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return tool.execute("c", Json.mapper().readTree(args), new CancellationToken(), update -> { });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void answer(AcpConnection connection, JsonNode request, String optionId) throws IOException {
        connection.answered(Json.mapper().readTree("{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id")
                + ",\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"" + optionId + "\"}}}"));
    }
}
