package dev.agentd.server.compaction;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.testing.Samples;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The token estimate and the summary request handle every message and block kind, or name it as left out. */
class CompactionDispatchTest {
    private static final Model MODEL = new Model("m", "M", "anthropic-messages", "anthropic", "https://x", true,
            List.of("text", "image"), Model.Cost.FREE, 200_000, 8_192);

    @Test
    void everyKindIsEstimatedAndTranscribed() {
        List<AgentMessage> history = Samples.historyOfEveryKind(MODEL);
        for (AgentMessage message : history) {
            assertTrue(TokenEstimate.of(message) >= 0, message.toString());
        }
        assertTrue(Summarizer.request(history, null, null).contains("[User]: next"));
    }

    @Test
    void aKindNobodyHandlesThrows() {
        assertThrows(IllegalStateException.class, () -> TokenEstimate.of(null));
        List<AgentMessage> unknownKind = Arrays.asList((AgentMessage) null);
        assertThrows(IllegalStateException.class, () -> Summarizer.request(unknownKind, null, null));
    }
}
