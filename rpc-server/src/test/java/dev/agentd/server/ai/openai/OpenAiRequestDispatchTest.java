package dev.agentd.server.ai.openai;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.testing.Samples;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The request body handles every kind of turn (a kind added later and not handled throws). */
class OpenAiRequestDispatchTest {
    private static final Model MODEL = new Model("gpt-test", "GPT Test", "openai-completions", "openai", "https://x", true,
            List.of("text", "image"), Model.Cost.FREE, 128_000, 8_192);

    @Test
    void aHistoryOfEveryKindBuildsABody() {
        ObjectNode body = OpenAiRequest.build(new StreamRequest(MODEL, "sys", Samples.historyOfEveryKind(MODEL), List.of(),
                ThinkingLevel.OFF, "key", Map.of(), "s"));
        assertTrue(body.path("messages").size() >= 3, body.toString());
    }
}
