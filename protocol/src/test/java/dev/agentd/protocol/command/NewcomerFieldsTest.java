package dev.agentd.protocol.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.SessionState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Additive fields of issue 17: {@code persist} on the retry toggles, {@code warnings} on ready/get_state. */
class NewcomerFieldsTest {
    private static final Model MODEL = new Model("faux-1", "Faux", "faux", "faux", "", false, List.of("text"),
            Model.Cost.FREE, 1000, 100);

    private static Command decoded(String json) throws Exception {
        return assertInstanceOf(CommandCodec.Decoded.class, CommandCodec.decode(Json.mapper().readTree(json)))
                .command();
    }

    @Test
    void persistIsOptionalAndDecoded() throws Exception {
        assertEquals(new Command.SetAutoRetry(false, false),
                decoded("{\"type\":\"set_auto_retry\",\"enabled\":false,\"persist\":false}"));
        assertEquals(new Command.SetAutoRetry(true, null), decoded("{\"type\":\"set_auto_retry\",\"enabled\":true}"));
        assertEquals(new Command.SetRetrySettings(1, null, null, false),
                decoded("{\"type\":\"set_retry_settings\",\"maxRetries\":1,\"persist\":false}"));
        assertFalse(CommandCodec.encode("1", new Command.SetAutoRetry(true)).has("persist"),
                "a pi-style command stays as it was");
    }

    @Test
    void warningsAppearOnlyWhenThereAreSome() throws Exception {
        JsonNode quiet = Json.mapper().valueToTree(new AgentEvent.Ready("1", "rpc", MODEL));
        assertFalse(quiet.has("warnings"), quiet.toString());
        JsonNode ready = Json.mapper().valueToTree(new AgentEvent.Ready("1", "rpc", MODEL, List.of("w1")));
        assertEquals("[\"w1\"]", ready.path("warnings").toString());

        SessionState state = new SessionState(MODEL, ThinkingLevel.OFF, false, false, QueueMode.ALL, QueueMode.ALL,
                null, "id", null, true, 0, 0, true, false, 0);
        assertFalse(Json.mapper().valueToTree(state).has("warnings"));
        JsonNode warned = Json.mapper().valueToTree(state.withWarnings(List.of("w2")));
        assertEquals("[\"w2\"]", warned.path("warnings").toString());
        assertEquals(state.withWarnings(List.of("w2")), Json.mapper().treeToValue(warned, SessionState.class));
    }
}
