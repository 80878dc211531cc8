package dev.agentd.client;

import static dev.agentd.client.FakeDaemon.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.response.Response;
import org.junit.jupiter.api.Test;

/** The client's JSON-RPC 2.0 records (SPEC §3.7). */
class JsonRpcDialectTest {
    private final WireDialect dialect = Dialect.JSONRPC.wire();

    private Response reply(String record) {
        return assertInstanceOf(WireDialect.Inbound.Reply.class, dialect.decode(json(record))).response();
    }

    private WireDialect.Inbound.Event event(String record) {
        return assertInstanceOf(WireDialect.Inbound.Event.class, dialect.decode(json(record)));
    }

    @Test
    void aCommandIsARequestNamedAfterItWithItsFieldsAsParams() {
        assertEquals(json("{\"jsonrpc\":\"2.0\",\"id\":\"req_1\",\"method\":\"set_model\","
                + "\"params\":{\"provider\":\"faux\",\"modelId\":\"faux-2\"}}"),
                dialect.encode("req_1", new Command.SetModel("faux", "faux-2")));
        assertEquals(json("{\"jsonrpc\":\"2.0\",\"id\":\"req_2\",\"method\":\"get_state\",\"params\":{}}"),
                dialect.encode("req_2", new Command.GetState()));
    }

    @Test
    void aResultIsASuccessfulResponseWithItsData() {
        Response response = reply("{\"jsonrpc\":\"2.0\",\"id\":\"req_3\",\"result\":{\"text\":\"hi\"}}");
        assertEquals("req_3", response.id());
        assertTrue(response.success());
        assertEquals(json("{\"text\":\"hi\"}"), response.data());
        assertNull(response.command(), "filled in from the pending request");
        assertTrue(reply("{\"jsonrpc\":\"2.0\",\"id\":\"req_4\",\"result\":null}").data().isNull());
    }

    @Test
    void anErrorIsAFailedResponseWithItsMessage() {
        Response response = reply("{\"jsonrpc\":\"2.0\",\"id\":\"req_5\",\"error\":{\"code\":-32000,"
                + "\"message\":\"Model not found: a/b\"}}");
        assertEquals("req_5", response.id());
        assertFalse(response.success());
        assertEquals("Model not found: a/b", response.error());
        assertNull(reply("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}")
                .id(), "answers no request: a stray response");
    }

    @Test
    void eventNotificationsAreTypedEvents() {
        WireDialect.Inbound.Event start = event("{\"jsonrpc\":\"2.0\",\"method\":\"event\","
                + "\"params\":{\"type\":\"agent_start\"}}");
        assertEquals(new AgentEvent.AgentStart(), start.event());
        assertNull(start.problem());
        assertInstanceOf(AgentEvent.Unknown.class, event("{\"jsonrpc\":\"2.0\",\"method\":\"event\","
                + "\"params\":{\"type\":\"from_the_future\"}}").event());
    }

    @Test
    void otherRecordsAreInvalid() {
        for (String record : new String[] {"[1]", "{\"id\":\"x\",\"result\":1}", "{\"type\":\"agent_start\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"mystery\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"prompt_failed\",\"params\":{\"id\":\"p\",\"error\":\"x\"}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"event\",\"params\":[]}", "{\"jsonrpc\":\"2.0\",\"id\":\"x\"}"}) {
            assertInstanceOf(WireDialect.Inbound.Invalid.class, dialect.decode(json(record)), record);
        }
    }
}
