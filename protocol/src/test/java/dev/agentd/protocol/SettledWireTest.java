package dev.agentd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.response.Response;
import dev.agentd.protocol.response.Results;
import org.junit.jupiter.api.Test;

/** pi 1.6's run-lifecycle records: {@code agent_settled} and the {@code disposition} of prompt answers. */
class SettledWireTest {
    private static final ObjectMapper MAPPER = Json.mapper();

    @Test
    void agentSettledIsWrittenAndReadAsPiDocumentsIt() throws Exception {
        String json = "{\"type\":\"agent_settled\",\"aborted\":false}";
        assertEquals(json, MAPPER.writeValueAsString(new AgentEvent.AgentSettled(false)));
        assertEquals(new AgentEvent.AgentSettled(true),
                MAPPER.readValue("{\"type\":\"agent_settled\",\"aborted\":true}", AgentEvent.class));
        assertEquals("agent_settled", new AgentEvent.AgentSettled(true).type());
    }

    @Test
    void dispositionIsTheDataOfAPromptAnswer() throws Exception {
        Response started = Response.ok("r1", "prompt",
                MAPPER.valueToTree(new Results.Disposition(Results.Disposition.STARTED)));
        assertEquals("{\"id\":\"r1\",\"type\":\"response\",\"command\":\"prompt\",\"success\":true,"
                + "\"data\":{\"disposition\":\"started\"}}", MAPPER.writeValueAsString(started));
        assertEquals(new Results.Disposition("queued"),
                MAPPER.readValue("{\"disposition\":\"queued\"}", Results.Disposition.class));
    }
}
