package dev.agentd.server.rpc;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.server.testing.ScriptedProvider;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.wire.JsonRpcError;
import dev.agentd.server.wire.RpcOutput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON-RPC dialect in-process: the router's responses and every error as JSON-RPC records. */
class JsonRpcModeTest {
    private static final int MAX_LINE = 4096;

    @TempDir
    Path dir;
    private SessionHarness harness;
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();

    @AfterEach
    void tearDown() {
        if (harness != null) {
            harness.close();
        }
    }

    /** Serves the lines until their end, on this thread, and returns the mode (for emit). */
    private JsonRpcMode serve(String... lines) {
        if (harness == null) {
            harness = SessionHarness.create(dir);
        }
        String input = String.join("\n", lines) + "\n";
        RpcOutput out = new RpcOutput(new JsonlWriter(stdout, Json.mapper()), () -> { });
        JsonRpcMode mode = new JsonRpcMode(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out,
                new CommandRouter(harness.session, harness.script), MAX_LINE);
        mode.serve();
        return mode;
    }

    private List<String> lines() {
        String text = stdout.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }

    private List<JsonNode> records() {
        List<JsonNode> records = new ArrayList<>();
        for (String line : lines()) {
            try {
                records.add(Json.mapper().readTree(line));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return records;
    }

    private JsonNode reply(String id) {
        return records().stream().filter(r -> r.isObject() && id.equals(r.path("id").asText(null))).findFirst()
                .orElseThrow(() -> new AssertionError("no reply to " + id + " in " + lines()));
    }

    private static String request(String id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    private static String notification(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    @Test
    void resultsAreTheResponsesData() {
        serve(request("r", "get_retry_settings", null), request("a", "set_auto_retry", "{\"enabled\":false}"),
                request("c", "cycle_thinking_level", "{}"));
        JsonNode settings = reply("r");
        assertEquals("2.0", settings.path("jsonrpc").asText());
        assertTrue(settings.path("result").path("enabled").asBoolean());
        assertFalse(settings.has("error"));
        assertTrue(lines().get(1).equals("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":null}"), lines().get(1));
        assertTrue(reply("c").has("result"), "nothing to cycle: result null, as data:null in rpc mode");
    }

    @Test
    void failuresAreErrorObjectsWithTheRpcDialectsMessages() {
        serve(request("f", "set_model", "{\"provider\":\"faux\",\"modelId\":\"faux-9\"}"),
                request("u", "no_such_method", "{}"),
                request("m", "set_model", "{\"provider\":\"faux\"}"),
                request("t", "set_auto_retry", "{\"enabled\":\"yes\"}"),
                request("p", "set_auto_retry", "[false]"),
                request("s", "subtract", "[42,23]"),
                request("e", "get_retry_settings", "[]"));
        assertError(reply("f"), JsonRpcError.COMMAND_FAILED, "Model not found: faux/faux-9");
        assertError(reply("u"), JsonRpcError.METHOD_NOT_FOUND, "Method not found: no_such_method");
        assertError(reply("m"), JsonRpcError.INVALID_PARAMS, "Missing required field 'modelId'");
        assertError(reply("t"), JsonRpcError.INVALID_PARAMS, "Invalid field 'enabled': expected a boolean");
        assertEquals(JsonRpcError.INVALID_PARAMS, reply("p").path("error").path("code").asInt());
        assertError(reply("s"), JsonRpcError.METHOD_NOT_FOUND, "Method not found: subtract");
        assertTrue(reply("e").path("result").has("enabled"), "params [] is no params: " + reply("e"));
        assertEquals(7, lines().size());
    }

    @Test
    void notificationsRunWithoutAReplyEvenWhenTheyFail() {
        serve(notification("set_auto_retry", "{\"enabled\":false}"), notification("no_such_method", "{}"),
                notification("set_model", "{}"), notification("set_auto_retry", "[true]"),
                request("r", "get_retry_settings", null));
        assertEquals(1, lines().size(), lines().toString());
        assertFalse(reply("r").path("result").path("enabled").asBoolean(true), "the notification took effect");
    }

    @Test
    void idsAreEchoedAsTheyCame() {
        serve("{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,\"method\":\"get_commands\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":-1.5,\"method\":\"get_commands\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"ид ✓\",\"method\":\"get_commands\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"get_commands\"}");
        List<String> lines = lines();
        assertTrue(lines.get(0).startsWith("{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,\"result\":"), lines.get(0));
        assertTrue(lines.get(1).startsWith("{\"jsonrpc\":\"2.0\",\"id\":-1.5,\"result\":"), lines.get(1));
        assertTrue(lines.get(2).startsWith("{\"jsonrpc\":\"2.0\",\"id\":\"ид ✓\",\"result\":"), lines.get(2));
        assertTrue(lines.get(3).startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":"), lines.get(3));
    }

    @Test
    void unreadableLinesAreParseErrorsWithIdNull() {
        String tooLong = request("big", "get_state", "{\"pad\":\"" + "x".repeat(MAX_LINE) + "\"}");
        serve("{\"jsonrpc\":\"2.0\",\"id\":\"x\",", tooLong, request("final", "get_commands", null));
        List<JsonNode> records = records();
        assertEquals(3, records.size());
        for (JsonNode parseError : records.subList(0, 2)) {
            assertError(parseError, JsonRpcError.PARSE_ERROR, null);
            assertTrue(parseError.get("id").isNull());
        }
        assertTrue(records.get(1).path("error").path("message").asText().contains("exceeds the limit"));
        assertTrue(reply("final").has("result"));
    }

    @Test
    void aBatchIsAnsweredWithOneArrayWithoutNotificationsOrNulls() {
        serve("[" + request("b1", "get_commands", null) + "," + notification("set_auto_retry", "{\"enabled\":false}")
                + "," + request("b2", "set_model", "{\"provider\":\"x\",\"modelId\":\"y\"}") + ",7,"
                + request("b3", "get_retry_settings", null) + "]");
        List<JsonNode> records = records();
        assertEquals(1, records.size(), lines().toString());
        JsonNode batch = records.get(0);
        assertTrue(batch.isArray());
        assertEquals(4, batch.size());
        assertEquals("b1", batch.get(0).path("id").asText());
        assertError(batch.get(1), JsonRpcError.COMMAND_FAILED, "Model not found: x/y");
        assertError(batch.get(2), JsonRpcError.INVALID_REQUEST, null);
        assertTrue(batch.get(2).get("id").isNull());
        assertFalse(batch.get(3).path("result").path("enabled").asBoolean(true), "elements run in order");
    }

    @Test
    void anEmptyBatchIsOneInvalidRequestAndABatchOfNotificationsWritesNothing() {
        serve("[]", "[" + notification("set_auto_retry", "{\"enabled\":false}") + "]", "[ ]");
        List<JsonNode> records = records();
        assertEquals(2, records.size(), lines().toString());
        for (JsonNode record : records) {
            assertTrue(record.isObject());
            assertError(record, JsonRpcError.INVALID_REQUEST, "Invalid request: empty batch");
        }
    }

    @Test
    void aPromptFailingItsPreflightIsAnsweredOnceWithAnError() {
        harness = SessionHarness.builder(dir).provider(new ScriptedProvider(), ScriptedProvider.MODEL).build();
        serve(request("p1", "prompt", "{\"message\":\"hi\"}"), request("s", "get_state", "{}"));
        await().until(() -> lines().size() == 2);
        JsonNode failed = records().stream().filter(r -> "p1".equals(r.path("id").asText())).findFirst().orElseThrow();
        assertEquals(JsonRpcError.COMMAND_FAILED, failed.path("error").path("code").asInt());
        assertTrue(failed.path("error").path("message").asText().startsWith("No API key found for scripted"),
                failed.toString());
        assertEquals(1, records().stream().filter(r -> "p1".equals(r.path("id").asText())).count());
        assertTrue(records().stream().noneMatch(r -> r.has("method")), "no notification: " + lines());
    }

    @Test
    void eventsAreEventNotifications() {
        JsonRpcMode mode = serve();
        mode.emit(new AgentEvent.AgentStart());
        assertEquals(List.of("{\"jsonrpc\":\"2.0\",\"method\":\"event\",\"params\":{\"type\":\"agent_start\"}}"),
                lines());
    }

    private static void assertError(JsonNode reply, int code, String message) {
        assertFalse(reply.has("result"), reply.toString());
        assertEquals(code, reply.path("error").path("code").asInt(), reply.toString());
        if (message != null) {
            assertEquals(message, reply.path("error").path("message").asText());
        }
    }
}
