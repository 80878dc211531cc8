package dev.agentd.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** N13: text quoted in warnings is escaped and cut; warning lists are capped. */
class LogTextTest {
    @Test
    void plainTextIsUnchanged() {
        assertEquals("anthropic/claude-opus-4-5:high", LogText.clip("anthropic/claude-opus-4-5:high"));
        assertEquals("\"openrouter/qwen/qwen3-coder:exacto\"", LogText.quoted("openrouter/qwen/qwen3-coder:exacto"));
        assertEquals("ünïcødé 模型 🙂", LogText.clip("ünïcødé 模型 🙂"));
    }

    @Test
    void controlCharactersCannotForgeALine() {
        String forged = "a/b\r\n12345 [WARN] forged log line\u0000\u001b[31m\u202e\u2028";
        String clipped = LogText.clip(forged);
        assertEquals("a/b\\r\\n12345 [WARN] forged log line\\u0000\\u001b[31m\\u202e\\u2028", clipped);
        assertTrue(clipped.chars().noneMatch(c -> c < 0x20 || c == 0x7f), clipped);
        assertEquals("\"x\\\"y\\\\z\\t\"", LogText.quoted("x\"y\\z\t"));
        assertEquals("\\ud800", LogText.clip("\ud800"), "a lone surrogate");
    }

    @Test
    void longTextIsCut() {
        String huge = "p/" + "m".repeat(1_000_000);
        String clipped = LogText.clip(huge);
        assertEquals(LogText.MAX_CHARS + 1, clipped.length());
        assertTrue(clipped.endsWith("…"));
        String escapes = LogText.clip("\n".repeat(10_000));
        assertTrue(escapes.length() <= LogText.MAX_CHARS + 2, "escapes count towards the cut: " + escapes.length());
        assertFalse(LogText.clip("x".repeat(LogText.MAX_CHARS)).endsWith("…"), "exactly the bound is not cut");
    }

    @Test
    void warningListsAreCapped() {
        List<String> many = java.util.stream.IntStream.range(0, 50).mapToObj(i -> "w" + i).toList();
        List<String> capped = LogText.capped(many, 20);
        assertEquals(21, capped.size());
        assertEquals("w19", capped.get(19));
        assertEquals("… and 30 more", capped.get(20));
        assertEquals(List.of("a"), LogText.capped(List.of("a"), 20));
    }
}
