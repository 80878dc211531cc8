package dev.agentd.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.json.Json;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class JsonProblemsTest {
    private static String problem(String text) {
        try {
            Json.mapper().readTree(text);
        } catch (IOException e) {
            return JsonProblems.describe("/x/models.json", e);
        }
        throw new AssertionError("parsed: " + text);
    }

    @Test
    void namesFileLineColumnAndReason() {
        String problem = problem("{\n  \"providers\": {},\n}");
        assertTrue(problem.startsWith("/x/models.json:3:"), problem);
        assertTrue(problem.contains("was expecting double-quote to start field name"), problem);
        assertFalse(problem.contains("\n"), problem);
    }

    @Test
    void neverQuotesAnUnquotedToken() {
        String problem = problem("{\"anthropic\": sk-ant-secret-token}");
        assertFalse(problem.contains("sk-ant"), problem);
        assertEquals("/x/models.json:1:", problem.substring(0, 17));
    }
}
