package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --mode jsonrpc} (SPEC §3.7) through the real agentd.jar, with raw JSON lines. */
class JsonRpcProtocolIT {
    private static final String PLAIN_ANSWER = "[{\"text\":\"Hello from the faux model, streamed in pieces.\"}]";

    @TempDir
    Path dir;
    private final List<DaemonProcess> daemons = new ArrayList<>();

    @AfterEach
    void tearDown() {
        for (DaemonProcess daemon : daemons) {
            daemon.close();
            assertEquals(List.of(), daemon.nonJsonLines(), "every stdout line must be a JSON object or array");
        }
    }

    private DaemonProcess start(String name, String script, String... args) throws IOException {
        Path agentDir = dir.resolve(name);
        Files.createDirectories(agentDir);
        List<String> all = new ArrayList<>(List.of(args));
        if (script != null) {
            Path file = dir.resolve(name + "-script.json");
            Files.writeString(file, script);
            all.add("--faux-script");
            all.add(file.toString());
        }
        DaemonProcess daemon = DaemonProcess.start(agentDir, dir, all.toArray(String[]::new));
        daemons.add(daemon);
        return daemon;
    }

    private DaemonProcess jsonrpc(String script, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("--mode", "jsonrpc"));
        all.addAll(List.of(args));
        return start("jsonrpc", script, all.toArray(String[]::new));
    }

    private static String request(Object id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + Json.mapper().valueToTree(id) + ",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    private static String notification(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    /** Waits for the reply (a result or an error) to the request with this id. */
    private static JsonNode reply(DaemonProcess daemon, Object id) {
        JsonNode expected = Json.mapper().valueToTree(id);
        return daemon.await(node -> expected.equals(node.get("id")) && (node.has("result") || node.has("error")));
    }

    private static List<JsonNode> replies(DaemonProcess daemon) {
        return daemon.records().stream().filter(node -> node.has("result") || node.has("error")).toList();
    }

    private static List<String> eventTypes(DaemonProcess daemon) {
        return daemon.records().stream().filter(node -> "event".equals(node.path("method").asText()))
                .map(node -> node.path("params").path("type").asText()).toList();
    }

    private static void awaitEvent(DaemonProcess daemon, String type) {
        daemon.await(node -> "event".equals(node.path("method").asText())
                && type.equals(node.path("params").path("type").asText()));
    }

    private static void assertError(JsonNode reply, int code, String message) {
        assertEquals("2.0", reply.path("jsonrpc").asText(), reply.toString());
        assertFalse(reply.has("result"), reply.toString());
        assertEquals(code, reply.path("error").path("code").asInt(), reply.toString());
        if (message != null) {
            assertEquals(message, reply.path("error").path("message").asText());
        }
    }

    @Test
    void readyIsTheFirstEventNotification() throws IOException {
        DaemonProcess daemon = jsonrpc(null);
        daemon.send(request("s1", "get_state", null));
        JsonNode state = reply(daemon, "s1");
        JsonNode first = daemon.records().get(0);
        assertEquals("event", first.path("method").asText());
        assertFalse(first.has("id"));
        assertEquals("ready", first.path("params").path("type").asText());
        assertEquals("jsonrpc", first.path("params").path("mode").asText());
        assertFalse(state.path("result").path("isStreaming").asBoolean(true));
    }

    @Test
    void requestsPipelinedInOneWriteAreAllAnswered() throws IOException {
        DaemonProcess daemon = jsonrpc(null);
        List<String> burst = new ArrayList<>();
        List<Object> ids = new ArrayList<>();
        String[] methods = {"get_state", "get_retry_settings", "get_commands", "get_session_stats"};
        for (int i = 0; i < 20; i++) {
            Object id = i % 3 == 0 ? (Object) i : i % 3 == 1 ? "req-" + i : "ид-" + i + "-✓";
            ids.add(id);
            burst.add(request(id, methods[i % methods.length], null));
        }
        daemon.send(String.join("\n", burst)); // one write, twenty lines

        for (Object id : ids) {
            JsonNode answer = reply(daemon, id);
            assertTrue(answer.has("result"), answer.toString());
            assertEquals(id instanceof Integer, answer.get("id").isNumber(), "numeric ids are echoed as numbers");
        }
        assertEquals(20, replies(daemon).size(), "each request answered exactly once");
    }

    private static List<String> withoutRepeatedUpdates(List<String> types) {
        List<String> kept = new ArrayList<>();
        for (String type : types) {
            if (!(type.equals("message_update") && !kept.isEmpty() && kept.get(kept.size() - 1).equals(type))) {
                kept.add(type);
            }
        }
        return kept;
    }

    @Test
    void eventsComeAsNotificationsInTheOrderOfRpcMode() throws IOException {
        DaemonProcess jsonrpc = jsonrpc(PLAIN_ANSWER);
        DaemonProcess rpc = start("rpc", PLAIN_ANSWER);
        jsonrpc.send(request("p1", "prompt", "{\"message\":\"hi\"}"));
        rpc.send(DaemonProcess.command("prompt", "p1", "message", "hi"));
        awaitEvent(jsonrpc, "agent_settled"); // pi 1.6: the run's last event
        rpc.awaitNth("agent_settled", 1);

        // Consecutive updates merge when a daemon's writer is behind (issue 18), so runs of them count once.
        List<String> expected = rpc.types().stream().filter(type -> !type.equals("response")).toList();
        assertEquals(withoutRepeatedUpdates(expected), withoutRepeatedUpdates(eventTypes(jsonrpc)));
        assertEquals("agent_start", eventTypes(jsonrpc).get(1));
        List<JsonNode> records = jsonrpc.records();
        int accepted = records.indexOf(reply(jsonrpc, "p1"));
        int start = records.indexOf(records.stream().filter(node -> "agent_start".equals(
                node.path("params").path("type").asText())).findFirst().orElseThrow());
        assertTrue(accepted < start, "the prompt's result precedes its run");
        // pi 1.6: the result is the response's data, {"disposition":"started"} (null before agentd spoke 1.6)
        assertEquals("started", reply(jsonrpc, "p1").get("result").path("disposition").asText());

        jsonrpc.send(request("t", "get_last_assistant_text", null));
        assertEquals("Hello from the faux model, streamed in pieces.",
                reply(jsonrpc, "t").path("result").path("text").asText());
    }

    @Test
    void sessionEntriesTreeAndThinkingLevelsAreMethods() throws IOException {
        DaemonProcess daemon = jsonrpc(PLAIN_ANSWER, "--no-session");
        daemon.send(request("p1", "prompt", "{\"message\":\"hi\"}"));
        awaitEvent(daemon, "agent_end");
        daemon.send(request("e1", "get_entries", null));
        JsonNode entries = reply(daemon, "e1").path("result");
        JsonNode last = entries.path("entries").get(entries.path("entries").size() - 1);
        assertEquals("assistant", last.path("message").path("role").asText(), entries.toString());
        assertEquals(last.path("id").asText(), entries.path("leafId").asText());
        daemon.send(request("e2", "get_entries", "{\"since\":\"" + last.path("id").asText() + "\"}"));
        assertEquals("[]", reply(daemon, "e2").path("result").path("entries").toString());
        daemon.send(request("e3", "get_entries", "{\"since\":\"nope\"}"));
        assertEquals("Entry not found: nope", reply(daemon, "e3").path("error").path("message").asText());
        daemon.send(request("t", "get_tree", null));
        JsonNode tree = reply(daemon, "t").path("result");
        assertEquals(1, tree.path("tree").size(), tree.toString());
        assertEquals(last.path("id").asText(), tree.path("leafId").asText());
        daemon.send(request("l", "get_available_thinking_levels", null));
        assertTrue(reply(daemon, "l").path("result").path("levels").isArray());
    }

    @Test
    void invalidInputGetsItsErrorCodeAndTheDaemonKeepsServing() throws IOException {
        DaemonProcess daemon = jsonrpc(null);
        daemon.send("{\"id\":\"e1\",\"method\":\"get_state\"}");
        daemon.send("{\"jsonrpc\":\"1.0\",\"id\":\"e2\",\"method\":\"get_state\"}");
        daemon.send("{\"jsonrpc\":\"2.0\",\"id\":\"e3\",\"method\":7}");
        daemon.send("[1,2]");
        daemon.send("\"get_state\"");
        daemon.send("this is not json");
        daemon.send("{\"jsonrpc\":\"2.0\",\"id\":\"e7\",\"method\":\"get_state\"");
        daemon.send(request("e8", "no_such_method", "{}"));
        daemon.send(request("e9", "set_model", "{\"provider\":\"faux\"}"));
        daemon.send(request("e10", "set_auto_retry", "{\"enabled\":\"yes\"}"));
        daemon.send(request("e11", "set_auto_retry", "[false]"));
        daemon.send(request("e12", "set_model", "{\"provider\":\"nope\",\"modelId\":\"missing\"}"));
        daemon.send(request("final", "get_state", null));

        assertTrue(reply(daemon, "final").has("result"));
        assertError(reply(daemon, "e1"), -32600, "Invalid request: 'jsonrpc' is missing; expected \"2.0\"");
        assertError(reply(daemon, "e2"), -32600, null);
        assertError(reply(daemon, "e3"), -32600, "Invalid request: 'method' must be a string, got a number");
        List<JsonNode> nullIds = replies(daemon).stream().filter(node -> node.get("id").isNull()).toList();
        assertEquals(3, nullIds.size(), "the string line and the two invalid JSON lines: " + nullIds);
        assertError(nullIds.get(0), -32600, null);
        assertError(nullIds.get(1), -32700, null);
        assertError(nullIds.get(2), -32700, null);
        assertError(reply(daemon, "e8"), -32601, "Method not found: no_such_method");
        assertError(reply(daemon, "e9"), -32602, "Missing required field 'modelId'");
        assertError(reply(daemon, "e10"), -32602, "Invalid field 'enabled': expected a boolean");
        assertError(reply(daemon, "e11"), -32602, null);
        assertError(reply(daemon, "e12"), -32000, "Model not found: nope/missing");
        JsonNode batch = daemon.batches().get(0);
        assertEquals(2, batch.size(), "[1,2]: one invalid request per element");
        batch.forEach(element -> assertError(element, -32600, null));
    }

    @Test
    void aNotificationIsRunWithoutAnAnswer() throws IOException {
        DaemonProcess daemon = jsonrpc(null);
        daemon.send(notification("set_auto_retry", "{\"enabled\":false}"));
        daemon.send(notification("no_such_method", "{}"));
        daemon.send(request("r", "get_retry_settings", null));
        assertFalse(reply(daemon, "r").path("result").path("enabled").asBoolean(true));
        assertEquals(1, replies(daemon).size(), replies(daemon).toString());
    }

    @Test
    void aBatchIsAnsweredWithOneArrayWithoutNulls() throws IOException {
        DaemonProcess daemon = jsonrpc(null);
        daemon.send("[" + request("b1", "get_state", null) + ","
                + notification("set_auto_retry", "{\"enabled\":false}") + ","
                + request(2, "set_model", "{\"provider\":\"nope\",\"modelId\":\"missing\"}") + ","
                + request("b3", "get_retry_settings", null) + "]");
        daemon.send("[]");
        daemon.send("[" + notification("set_auto_retry", "{\"enabled\":true}") + "]");
        daemon.send(request("final", "get_retry_settings", null));

        assertTrue(reply(daemon, "final").path("result").path("enabled").asBoolean(), "the notification batch ran");
        assertEquals(1, daemon.batches().size(), "one array for the first batch, none for notifications only");
        JsonNode batch = daemon.batches().get(0);
        assertEquals(3, batch.size(), batch.toString());
        assertEquals("b1", batch.get(0).path("id").asText());
        assertEquals(2, batch.get(1).path("id").intValue());
        assertError(batch.get(1), -32000, "Model not found: nope/missing");
        assertFalse(batch.get(2).path("result").path("enabled").asBoolean(true));
        assertError(replies(daemon).stream().filter(node -> node.get("id").isNull()).findFirst().orElseThrow(),
                -32600, "Invalid request: empty batch");
        assertEquals(2, replies(daemon).size(), "the empty batch's error and the final result");
    }

    @Test
    void idsAreEchoedAsTheyCame() throws IOException {
        DaemonProcess daemon = jsonrpc(null);
        daemon.send("{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,\"method\":\"get_commands\"}");
        daemon.send(request(null, "get_commands", null));
        daemon.send(request("final", "get_commands", null));
        reply(daemon, "final");
        List<String> raw = daemon.rawLines();
        assertTrue(raw.stream().anyMatch(line -> line.startsWith("{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,")),
                raw.toString());
        assertTrue(raw.stream().anyMatch(line -> line.startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":")),
                "an id null request is answered, with id null");
    }

    @Test
    void abortAnswersOnceTheRunHasEnded() throws IOException {
        DaemonProcess daemon = jsonrpc("[{\"text\":\"" + "word ".repeat(200) + "\",\"chunkDelayMs\":50}]");
        daemon.send(request("p", "prompt", "{\"message\":\"go\"}"));
        daemon.await(node -> "text_delta".equals(node.path("params").path("assistantMessageEvent").path("type")
                .asText()));
        daemon.send(request("a", "abort", null));
        JsonNode abort = reply(daemon, "a");
        assertTrue(abort.has("result"));
        List<JsonNode> records = daemon.records();
        int end = records.indexOf(records.stream().filter(node -> "agent_end".equals(
                node.path("params").path("type").asText())).findFirst().orElseThrow());
        assertTrue(end < records.indexOf(abort), "abort answers once the agent is idle");
        daemon.send(request("s", "get_state", null));
        assertFalse(reply(daemon, "s").path("result").path("isStreaming").asBoolean(true));
    }

    @Test
    void aBatchWithALongCommandIsAnsweredWhenItFinishes() throws IOException {
        DaemonProcess daemon = jsonrpc(null);
        daemon.send("[" + request("b", "bash", "{\"command\":\"sleep 60\"}") + ","
                + request("s", "get_state", null) + "]");
        daemon.send(request("probe", "get_commands", null));
        reply(daemon, "probe");
        assertEquals(List.of(), daemon.batches(), "bash still runs: the batch is not answered yet");

        daemon.send(request("ab", "abort_bash", null));
        reply(daemon, "ab");
        Waits.await().until(() -> !daemon.batches().isEmpty());
        JsonNode batch = daemon.batches().get(0);
        assertEquals(2, batch.size(), batch.toString());
        assertEquals("s", batch.get(0).path("id").asText(), "replies are listed as they came");
        assertEquals("b", batch.get(1).path("id").asText());
        assertTrue(batch.get(1).path("result").path("cancelled").asBoolean(), batch.toString());
    }

    @Test
    void aPromptFailingItsPreflightGetsOneErrorReplyAndNoNotification() throws IOException {
        DaemonProcess daemon = jsonrpc(null, "--model", "anthropic/claude-sonnet-4-5");
        daemon.send(request("p", "prompt", "{\"message\":\"hi\"}"));
        JsonNode failed = reply(daemon, "p");
        assertEquals(-32000, failed.path("error").path("code").asInt(), failed.toString());
        assertTrue(failed.path("error").path("message").asText().contains("anthropic"), failed.toString());
        daemon.send(request("s", "get_state", "{}"));
        reply(daemon, "s");
        assertEquals(1, daemon.records().stream().filter(r -> "p".equals(r.path("id").asText())).count());
        assertTrue(daemon.records().stream().noneMatch(r -> "prompt_failed".equals(r.path("method").asText())));
        assertEquals(List.of("ready"), eventTypes(daemon), "no agent events");
    }
}
