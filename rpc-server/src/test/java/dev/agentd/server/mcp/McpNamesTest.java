package dev.agentd.server.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.tools.Tools;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class McpNamesTest {

    @Test
    void toolsAreNamespacedPerServerWithOnlySafeCharacters() {
        Map<String, String> names = McpNames.namespaced("every-thing", List.of("echo", "get-env", "a.b/c d"));
        assertEquals("mcp__every_thing__echo", names.get("echo"));
        assertEquals("mcp__every_thing__get_env", names.get("get-env"));
        assertEquals("mcp__every_thing__a_b_c_d", names.get("a.b/c d"));
    }

    @Test
    void controlCharactersAndNonAsciiNeverReachTheModel() {
        String name = McpNames.namespaced("s", List.of("evil\n\u0000\u202Ename")).values().iterator().next();
        assertTrue(name.matches("[A-Za-z0-9_]+"), name);
    }

    @Test
    void noServerToolCanTakeABuiltInName() {
        for (String builtIn : Tools.KNOWN) {
            String name = McpNames.namespaced("x", List.of(builtIn)).get(builtIn);
            assertNotEquals(builtIn, name);
            assertTrue(McpNames.isMcp(name));
        }
        assertFalse(McpNames.isMcp("bash"));
    }

    @Test
    void namesThatCollideAfterSanitizingEachGetAHash() {
        Map<String, String> names = McpNames.namespaced("s", List.of("a-b", "a.b", "c"));
        assertNotEquals(names.get("a-b"), names.get("a.b"));
        assertTrue(names.get("a-b").startsWith("mcp__s__a_b_"), names.toString());
        assertEquals("mcp__s__c", names.get("c"));
    }

    @Test
    void longNamesAreCutTo64WithAHashKeepingThemApart() {
        String a = "x".repeat(100) + "a";
        String b = "x".repeat(100) + "b";
        Map<String, String> names = McpNames.namespaced("server", List.of(a, b));
        assertEquals(64, names.get(a).length());
        assertNotEquals(names.get(a), names.get(b));
    }

    @Test
    void serverNamesFollowPisRule() {
        assertTrue(McpNames.validServer("files_2-x"));
        assertFalse(McpNames.validServer("with space"));
        assertFalse(McpNames.validServer(""));
        assertFalse(McpNames.validServer("x".repeat(65)));
    }
}
