package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The fallback design §7: what may reach fallback.log. */
class LogScrubberTest {
    private static final String KEY = "sk-ant-api03-FAKEKEYzzQ9xx7Tt4Vv2Ww1";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "Authorization: Bearer abc.def-ghi               | Authorization: Bearer [redacted]",
        "authorization=basic dXNlcjpwYXNz, next          | authorization=basic [redacted], next",
        "`{\"Authorization\":\"Bearer tok123\"}`         | `{\"Authorization\":\"Bearer [redacted]\"}`",
        "authorization: rawtoken                         | authorization: [redacted]",
        "got bearer xyz123 back                          | got bearer [redacted] back",
        "BEARER   spaced                                 | BEARER   [redacted]",
        "x-api-key: k-123; other                         | x-api-key: [redacted]; other",
        "`{\"x-api-key\": \"k-123\"}`                    | `{\"x-api-key\": \"[redacted]\"}`",
        "GET /v1?api_key=s3cr3t&x=1                      | GET /v1?api_key=[redacted]&x=1",
        "GET /v1?a=1&token=s3cr3t                        | GET /v1?a=1&token=[redacted]",
        "GET /v1?key=s3cr3t#frag other                   | GET /v1?key=[redacted] other",
        "https://h/x?Password=hunter2]                   | https://h/x?Password=[redacted]]",
        "u?auth=abc,v?secret=def}                        | u?auth=[redacted],v?secret=[redacted]}",
        "sk-learn is a library; task-sk-1                | sk-learn is a library; task-sk-1",
        "bearer                                          | bearer",
        "nothing to see here                             | nothing to see here",
        "monkey?keyboard=1 ask-me-anything-at-all-today  | monkey?keyboard=1 ask-me-anything-at-all-today",
    })
    void redactsSecrets(String raw, String expected) {
        assertEquals(expected.strip(), LogScrubber.text(raw.strip()));
    }

    @Test
    void anApiKeyInTextIsRedacted() {
        assertEquals("key sk-[redacted] leaked", LogScrubber.text("key " + KEY + " leaked"));
    }

    @Test
    void textIsCutTo200CharactersAfterRedaction() {
        String cut = LogScrubber.text("x".repeat(199) + " Bearer " + "y".repeat(300));
        assertEquals(200, cut.length());
        assertTrue(cut.endsWith("..."));
        assertEquals("a".repeat(200), LogScrubber.text("a".repeat(200)));
        // a long key straddling the cut is redacted first, so no prefix of it survives
        String straddle = LogScrubber.text("z".repeat(190) + " " + KEY);
        assertFalse(straddle.contains("FAKEKEY"), straddle);
    }

    @Test
    void onlyAllowedTopLevelKeysAndNoBlockedKeysAtAnyDepth() {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("Headers", Map.of("x", "y"));
        nested.put("API_KEY", "plain");
        nested.put("deeper", Map.of("Token", "t", "fine", List.of("ok", Map.of("Client_Secret", "s", "kept", 1))));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("selector", "openai/gpt-5");
        data.put("error", nested);
        data.put("limit", "account");
        data.put("trigger", "fallback-unusable");
        data.put("source", "project");
        data.put("env", Map.of("OPENAI_API_KEY", KEY));
        data.put("durationMs", 1500L);
        data.put("thinkingLevel", null);
        ObjectNode line = LogScrubber.record("2026-12-01T00:00:00Z", "info", "fallback_applied", data);
        assertEquals("{\"ts\":\"2026-12-01T00:00:00Z\",\"level\":\"info\",\"event\":\"fallback_applied\","
                + "\"selector\":\"openai/gpt-5\",\"error\":{\"deeper\":{\"fine\":[\"ok\",{\"kept\":1}]}},"
                + "\"limit\":\"account\",\"trigger\":\"fallback-unusable\",\"durationMs\":1500,\"thinkingLevel\":null}",
                line.toString());
    }

    @Test
    void cyclesAndDeepNestingAreCut() throws Exception {
        List<Object> cycle = new ArrayList<>();
        cycle.add("a");
        cycle.add(cycle);
        Map<String, Object> deep = new LinkedHashMap<>();
        Map<String, Object> cursor = deep;
        for (int i = 0; i < 20; i++) {
            Map<String, Object> next = new LinkedHashMap<>();
            cursor.put("n", next);
            cursor = next;
        }
        ObjectNode line = LogScrubber.record("t", "debug", "e", Map.of("error", cycle, "warning", deep));
        assertEquals("[\"a\",\"[Circular]\"]", line.get("error").toString());
        assertTrue(line.get("warning").toString().contains("[Too deep]"));
        Json.mapper().writeValueAsString(line);
    }

    @ParameterizedTest(name = "1 MB worst case: {0}")
    @ValueSource(strings = {"bearer ", "authorization", "authorization: ", "x-api-key", "sk-", "?api_key", "&",
        "-sk-", " ", "a", "Bearer\t", "&a", "?auth"})
    void megabyteWorstCasesAreLinear(String unit) {
        String hostile = unit.repeat(1_000_000 / unit.length());
        String keyRun = "sk-" + "a".repeat(1_000_000);
        // A backtracking scan would not finish; the single pass takes milliseconds on an idle
        // machine. The bound is far above that so that a loaded machine cannot fail it.
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            LogScrubber.text(hostile);
            LogScrubber.text(hostile + "x");
            assertEquals("sk-[redacted]", LogScrubber.text(keyRun));
        });
    }

    @Test
    void blockedKeysIgnoreCase() {
        for (String key : List.of("Authorization", "HEADERS", "Api_Key", "apiKey", "Client_Secret", "password", "x-api-key")) {
            assertTrue(LogScrubber.blocked(key), key);
        }
        assertFalse(LogScrubber.blocked("selector"));
    }
}
