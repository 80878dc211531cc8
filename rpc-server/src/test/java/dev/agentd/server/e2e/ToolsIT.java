package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The coding tools through the real process, driven by a faux script. */
class ToolsIT {
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

    private void start(String script) throws IOException {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Path file = dir.resolve("script.json");
        Files.writeString(file, script);
        daemon = DaemonProcess.start(agentDir, work, "--faux-script", file.toString(), "--no-session");
    }

    private static String call(String name, String arguments) {
        return "{\"toolCall\":{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}}";
    }

    @Test
    void writeThenReadThenBashRunInOrderAndTheNextTurnSeesTheResults() throws IOException {
        start("[" + call("write", "{\"path\":\"notes/hello.txt\",\"content\":\"hello tools\\n\"}") + ","
                + call("read", "{\"path\":\"notes/hello.txt\"}") + ","
                + call("bash", "{\"command\":\"wc -c notes/hello.txt\"}") + ",{\"text\":\"all done\"}]");
        daemon.send(command("prompt", "p", "message", "use the tools"));
        JsonNode end = daemon.awaitNth("agent_end", 1);

        assertEquals("hello tools\n", Files.readString(dir.resolve("work/notes/hello.txt")));
        List<JsonNode> toolEnds = daemon.records().stream()
                .filter(node -> "tool_execution_end".equals(node.path("type").asText())).toList();
        assertEquals(List.of("write", "read", "bash"), toolEnds.stream().map(n -> n.path("toolName").asText()).toList());
        toolEnds.forEach(node -> assertFalse(node.path("isError").asBoolean(), node.toString()));
        assertTrue(toolEnds.get(1).path("result").path("content").get(0).path("text").asText().contains("hello tools"));
        assertTrue(toolEnds.get(2).path("result").path("content").get(0).path("text").asText().contains("12"));
        // pi 1.x: bash's result as data on the wire, never in the persisted tool result message
        JsonNode structured = toolEnds.get(2).path("result").path("structuredContent");
        assertEquals(0, structured.path("exit_code").asInt(), toolEnds.get(2).toString());
        assertTrue(structured.path("output").asText().contains("12"));
        assertTrue(toolEnds.get(1).path("result").path("structuredContent").asText().contains("hello tools"),
                "read's is the text");
        assertFalse(toolEnds.get(0).path("result").has("structuredContent"), "write has none");

        List<String> roles = new ArrayList<>();
        end.path("messages").forEach(message -> roles.add(message.path("role").asText()));
        assertEquals(List.of("user", "assistant", "toolResult", "assistant", "toolResult", "assistant", "toolResult",
                "assistant"), roles);
        List<String> types = daemon.types();
        int firstToolEnd = types.indexOf("tool_execution_end");
        assertEquals(List.of("tool_execution_end", "message_start", "message_end", "turn_end", "turn_start"),
                types.subList(firstToolEnd, firstToolEnd + 5));
    }

    @Test
    void steeringDuringALongBashWaitsForTheBatchNoCallIsSkipped() throws IOException {
        start("[{\"toolCalls\":[{\"name\":\"bash\",\"arguments\":{\"command\":\"echo working; sleep 2; echo done\"}},"
                + "{\"name\":\"write\",\"arguments\":{\"path\":\"written.txt\",\"content\":\"x\"}}]},"
                + "{\"text\":\"steered\"}]");
        daemon.send(command("prompt", "p", "message", "go"));
        JsonNode update = daemon.await(node -> "tool_execution_update".equals(node.path("type").asText()));
        assertTrue(update.path("partialResult").path("content").get(0).path("text").asText().contains("working"));
        daemon.send(command("steer", "s", "message", "stop and listen"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        List<JsonNode> toolEnds = daemon.records().stream()
                .filter(node -> "tool_execution_end".equals(node.path("type").asText())).toList();
        assertEquals(2, toolEnds.size());
        toolEnds.forEach(node -> assertFalse(node.path("isError").asBoolean(), node.toString()));
        assertTrue(Files.exists(dir.resolve("work/written.txt")));
        List<String> texts = new ArrayList<>();
        end.path("messages").forEach(message -> texts.add(message.path("role").asText() + ":"
                + message.path("content").path(0).path("text").asText()));
        assertEquals("user:stop and listen", texts.get(texts.size() - 2));
        assertEquals("assistant:steered", texts.get(texts.size() - 1));
        assertEquals("toolResult", texts.get(texts.size() - 3).split(":")[0]);
    }

    @Test
    void callsOfOneReplyRunConcurrentlyEndInCompletionOrderResultsInCallOrder() throws IOException {
        // A can only finish early once B has run: with sequential execution it would wait out its
        // bound. It then waits for B's shell to exit and two more seconds, so B's end is reported
        // first however the threads are scheduled.
        String waitForB = "for i in $(seq 400); do [ -f b.done ] && break; sleep 0.05; done; "
                + "if [ -f b.done ]; then b=$(cat b.done); while kill -0 $b 2>/dev/null; do sleep 0.05; done; "
                + "sleep 2; echo A-saw-B; else echo A-alone; fi";
        String b = "echo $$ > b.tmp; mv b.tmp b.done; echo B";
        start("[{\"toolCalls\":[{\"name\":\"bash\",\"arguments\":{\"command\":\"" + waitForB + "\"}},"
                + "{\"name\":\"bash\",\"arguments\":{\"command\":\"" + b + "\"}}]},"
                + "{\"text\":\"both done\"}]");
        daemon.send(command("prompt", "p", "message", "go"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        List<String> order = new ArrayList<>();
        List<String> started = new ArrayList<>();
        for (JsonNode node : daemon.records()) {
            String type = node.path("type").asText();
            if (type.equals("tool_execution_start")) {
                started.add(node.path("toolCallId").asText());
                order.add("start:" + (node.path("args").path("command").asText().startsWith("echo $$") ? "B" : "A"));
            } else if (type.equals("tool_execution_end")) {
                order.add("end:" + (started.indexOf(node.path("toolCallId").asText()) == 1 ? "B" : "A"));
            } else if (type.equals("message_end") && node.path("message").path("role").asText().equals("toolResult")) {
                order.add("result:" + node.path("message").path("content").path(0).path("text").asText().strip());
            }
        }
        assertEquals(List.of("start:A", "start:B", "end:B", "end:A", "result:A-saw-B", "result:B"),
                order);
        assertEquals("both done", end.path("messages").get(end.path("messages").size() - 1)
                .path("content").path(0).path("text").asText());
    }

    @Test
    void rpcBashRunsWhileStreamingAndAbortBashStopsIt() throws IOException {
        start("[{\"text\":\"" + "slow ".repeat(100) + "\",\"chunkDelayMs\":30}]");
        daemon.send(command("prompt", "p", "message", "talk"));
        daemon.await(node -> "text_delta".equals(node.path("assistantMessageEvent").path("type").asText()));
        JsonNode quick = daemon.request(command("bash", "b1", "command", "echo quick"));
        assertEquals("quick", quick.path("data").path("output").asText().strip());
        assertEquals(0, quick.path("data").path("exitCode").asInt());
        daemon.send(command("bash", "b2", "command", "sleep 60"));
        JsonNode abort = daemon.request(command("abort_bash", "ab"));
        assertTrue(abort.path("success").asBoolean());
        JsonNode killed = daemon.response("b2").path("data");
        assertTrue(killed.path("cancelled").asBoolean(), killed.toString());
        assertTrue(killed.path("exitCode").isMissingNode());
    }

    @Test
    void piOneWireAdditionsToolCallNamesDurationAndStreamedRpcBash() throws IOException {
        start("[" + call("bash", "{\"command\":\"printf tool\"}") + ",{\"text\":\"ok\"}]");
        daemon.send(command("prompt", "p", "message", "go"));
        daemon.awaitNth("agent_end", 1);
        JsonNode toolEnd = daemon.await(node -> "tool_execution_end".equals(node.path("type").asText()));
        assertTrue(toolEnd.path("durationMs").isIntegralNumber(), toolEnd.toString());
        JsonNode start = daemon.await(node -> "toolcall_start".equals(
                node.path("assistantMessageEvent").path("type").asText())).path("assistantMessageEvent");
        assertEquals(toolEnd.path("toolCallId").asText(), start.path("id").asText(), start.toString());
        assertEquals("bash", start.path("toolName").asText());

        JsonNode result = daemon.request(command("bash", "b7", "command", "printf 'a\\n'; sleep 0.3; printf 'b\\n'"));
        assertEquals("a\nb", result.path("data").path("output").asText());
        List<JsonNode> records = daemon.records();
        List<JsonNode> updates = records.stream()
                .filter(node -> "bash_execution_update".equals(node.path("type").asText())).toList();
        StringBuilder streamed = new StringBuilder();
        updates.forEach(update -> {
            assertEquals("b7", update.path("id").asText(), update.toString());
            streamed.append(update.path("delta").asText());
        });
        assertEquals("a\nb\n", streamed.toString());
        assertTrue(records.indexOf(updates.get(updates.size() - 1)) < records.indexOf(result),
                "the updates precede the response");
    }
}
