package dev.agentd.server.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.json.Json;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Envelope validation of the JSON-RPC dialect (SPEC §3.7), before anything is dispatched. */
class JsonRpcEnvelopeTest {

    private static JsonRpcEnvelope.Result check(String json) throws IOException {
        return JsonRpcEnvelope.check(Json.mapper().readTree(json));
    }

    private static JsonRpcEnvelope.Rejected rejected(String json) throws IOException {
        return assertInstanceOf(JsonRpcEnvelope.Rejected.class, check(json));
    }

    @Test
    void aRequestKeepsItsIdMethodAndParams() throws IOException {
        JsonRpcEnvelope.Call call = assertInstanceOf(JsonRpcEnvelope.Call.class,
                check("{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"set_auto_retry\",\"params\":{\"enabled\":false}}"));
        assertEquals("r1", call.id().textValue());
        assertEquals("set_auto_retry", call.method());
        assertFalse(call.params().path("enabled").asBoolean(true));
        assertFalse(call.notification());
    }

    @Test
    void absentParamsAreAnEmptyObject() throws IOException {
        JsonRpcEnvelope.Call call = assertInstanceOf(JsonRpcEnvelope.Call.class,
                check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"get_state\"}"));
        assertTrue(call.params().isEmpty());
    }

    @Test
    void withoutIdItIsANotification() throws IOException {
        JsonRpcEnvelope.Call call = assertInstanceOf(JsonRpcEnvelope.Call.class,
                check("{\"jsonrpc\":\"2.0\",\"method\":\"abort\"}"));
        assertTrue(call.notification());
        assertNull(call.id());
    }

    @Test
    void aNullIdIsARequestAnsweredWithIdNull() throws IOException {
        JsonRpcEnvelope.Call call = assertInstanceOf(JsonRpcEnvelope.Call.class,
                check("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"get_state\"}"));
        assertFalse(call.notification());
        assertTrue(call.id().isNull());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "7|7",
            "-3|-3",
            "2.5|2.5",
            "123456789012345678901234567890|123456789012345678901234567890",
            "\"ид-✓ 🚀\"|\"ид-✓ 🚀\""})
    void numericAndNonAsciiIdsAreKeptAsTheyCame(String id, String echoed) throws IOException {
        JsonRpcEnvelope.Call call = assertInstanceOf(JsonRpcEnvelope.Call.class,
                check("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"get_state\"}"));
        assertEquals(echoed, Json.mapper().writeValueAsString(call.id()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "{\"id\":\"a\",\"method\":\"get_state\"}|\"a\"|'jsonrpc' is missing",
            "{\"jsonrpc\":\"1.0\",\"id\":\"a\",\"method\":\"get_state\"}|\"a\"|'jsonrpc' must be \"2.0\"",
            "{\"jsonrpc\":2.0,\"id\":3,\"method\":\"get_state\"}|3|'jsonrpc' must be \"2.0\"",
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\"}|\"a\"|'method' is missing",
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":42}|\"a\"|'method' must be a string",
            "{\"jsonrpc\":\"2.0\",\"method\":[\"x\"]}|null|'method' must be a string",
            "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"get_state\"}|null|'id' must be a string",
            "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"get_state\"}|null|'id' must be a string",
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"get_state\",\"params\":\"x\"}|\"a\"|'params' must be an object",
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"get_state\",\"params\":null}|\"a\"|'params' must be an object",
            "42|null|expected a JSON object, got a number",
            "\"get_state\"|null|expected a JSON object, got a string"})
    void invalidEnvelopesAreInvalidRequestsAnsweredWithTheUsableId(String json, String id, String detail)
            throws IOException {
        JsonRpcEnvelope.Rejected rejected = rejected(json);
        assertEquals(JsonRpcError.INVALID_REQUEST, rejected.error().code());
        assertTrue(rejected.error().message().startsWith("Invalid request: " + detail), rejected.error().message());
        assertEquals(id, Json.mapper().writeValueAsString(rejected.id()), "always answered, with the usable id");
    }

    @Test
    void positionalParamsAreInvalidParams() throws IOException {
        JsonRpcEnvelope.Rejected request = rejected(
                "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"set_auto_retry\",\"params\":[false]}");
        assertEquals(JsonRpcError.INVALID_PARAMS, request.error().code());
        assertTrue(request.error().message().contains("positional"), request.error().message());
        assertEquals(9, request.id().intValue());

        JsonRpcEnvelope.Rejected notification = rejected(
                "{\"jsonrpc\":\"2.0\",\"method\":\"set_auto_retry\",\"params\":[false]}");
        assertNull(notification.id(), "a notification is not answered, even when it cannot be run");
    }

    @Test
    void aMethodIsCheckedBeforeItsPositionalParamsAndNoParamsByPositionAreNoParams() throws IOException {
        java.util.function.Predicate<String> known = "get_state"::equals;
        JsonRpcEnvelope.Result unknown = JsonRpcEnvelope.check(Json.mapper().readTree(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subtract\",\"params\":[42,23]}"), known);
        assertEquals(JsonRpcError.METHOD_NOT_FOUND, assertInstanceOf(JsonRpcEnvelope.Rejected.class, unknown)
                .error().code(), "JSON-RPC 2.0 §7: a method that does not exist, whatever its params");
        JsonRpcEnvelope.Call empty = assertInstanceOf(JsonRpcEnvelope.Call.class, JsonRpcEnvelope.check(
                Json.mapper().readTree("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"get_state\",\"params\":[]}"),
                known));
        assertTrue(empty.params().isEmpty());
        JsonRpcEnvelope.Result positional = JsonRpcEnvelope.check(Json.mapper().readTree(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"get_state\",\"params\":[1]}"), known);
        assertEquals(JsonRpcError.INVALID_PARAMS, assertInstanceOf(JsonRpcEnvelope.Rejected.class, positional)
                .error().code());
    }

    @Test
    void unknownMembersAreIgnored() throws IOException {
        assertInstanceOf(JsonRpcEnvelope.Call.class,
                check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"get_state\",\"extra\":true}"));
    }
}
