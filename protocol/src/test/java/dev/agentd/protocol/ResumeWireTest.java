package dev.agentd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.json.Json;
import org.junit.jupiter.api.Test;

/** {@code retry_resume_scheduled} (FALLBACK §11): an additive event, written and read with its four fields. */
class ResumeWireTest {
    private static final ObjectMapper MAPPER = Json.mapper();

    @Test
    void resumeScheduledIsWrittenAndReadBack() throws Exception {
        AgentEvent.RetryResumeScheduled event = new AgentEvent.RetryResumeScheduled("anthropic/claude", 1_800_000_003_000L,
                3000, "usage_limit");
        String json = "{\"type\":\"retry_resume_scheduled\",\"selector\":\"anthropic/claude\","
                + "\"resumeAt\":1800000003000,\"waitMs\":3000,\"reason\":\"usage_limit\"}";
        assertEquals(json, MAPPER.writeValueAsString(event));
        assertEquals(event, MAPPER.readValue(json, AgentEvent.class));
    }
}
