package dev.agentd.server.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class McpConfigTest {
    private static final Path CWD = Path.of("/work/project");

    private static JsonNode json(String text) throws Exception {
        return Json.mapper().readTree(text);
    }

    @Test
    void settingsEntriesInClaudeCodesShape() throws Exception {
        McpConfig.Parsed parsed = McpConfig.fromSettings(json("""
                {"files": {"command": "npx", "args": ["-y", "server-filesystem", "."], "env": {"TOKEN": "${GH}"},
                           "cwd": "sub", "timeout": 5},
                 "docs": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${DOCS}"}},
                 "old": {"type": "sse", "url": "http://localhost:9/sse"},
                 "off": {"command": "x", "enabled": false}}
                """), CWD, Map.of("GH", "gh-token", "DOCS", "docs-token")::get);
        assertEquals(List.of(), parsed.warnings());
        assertEquals(List.of("files", "docs", "old"), parsed.servers().stream().map(McpServerSpec::name).toList());
        McpServerSpec files = parsed.servers().get(0);
        McpServerSpec.Stdio stdio = assertInstanceOf(McpServerSpec.Stdio.class, files.transport());
        assertEquals("npx", stdio.command());
        assertEquals(List.of("-y", "server-filesystem", "."), stdio.args());
        assertEquals(Map.of("TOKEN", "gh-token"), stdio.env());
        assertEquals(CWD.resolve("sub"), stdio.cwd());
        assertEquals(5_000, files.timeoutMs());
        McpServerSpec.Http docs = assertInstanceOf(McpServerSpec.Http.class, parsed.servers().get(1).transport());
        assertEquals(Map.of("Authorization", "Bearer docs-token"), docs.headers());
        assertFalse(docs.sse());
        assertEquals(McpConfig.DEFAULT_TIMEOUT_MS, parsed.servers().get(1).timeoutMs());
        assertTrue(((McpServerSpec.Http) parsed.servers().get(2).transport()).sse());
    }

    @Test
    void secretsNeverShowInASpecsText() throws Exception {
        McpConfig.Parsed parsed = McpConfig.fromSettings(json("""
                {"a": {"command": "x", "env": {"KEY": "s3cret-value"}},
                 "b": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer s3cret-value"}}}
                """), CWD, name -> null);
        assertFalse(parsed.servers().toString().contains("s3cret-value"), parsed.servers().toString());
    }

    @Test
    void badEntriesAreWarningsAndTheOthersStillStart() throws Exception {
        McpConfig.Parsed parsed = McpConfig.fromSettings(json("""
                {"ok": {"command": "x"},
                 "bad name": {"command": "x"},
                 "both": {"command": "x", "url": "http://h"},
                 "neither": {"args": []},
                 "ftp": {"url": "ftp://h"},
                 "weird": {"type": "grpc", "url": "http://h"},
                 "args": {"command": "x", "args": "not-a-list"},
                 "t": {"command": "x", "timeout": -1},
                 "unset": {"command": "x", "env": {"A": "${NOT_SET}"}},
                 "notobj": 3}
                """), CWD, name -> null);
        assertEquals(List.of("ok", "unset"), parsed.servers().stream().map(McpServerSpec::name).toList());
        assertEquals(9, parsed.warnings().size(), parsed.warnings().toString());
        assertTrue(parsed.warnings().stream().anyMatch(w -> w.contains("'both'") && w.contains("both command and url")));
        assertTrue(parsed.warnings().stream().anyMatch(w -> w.contains("${NOT_SET} is not set")));
    }

    @Test
    void namesSharingANamespaceKeepTheFirst() throws Exception {
        McpConfig.Parsed parsed = McpConfig.fromSettings(json("""
                {"my-server": {"command": "a"}, "my_server": {"command": "b"}}
                """), CWD, name -> null);
        assertEquals(List.of("my-server"), parsed.servers().stream().map(McpServerSpec::name).toList());
        assertTrue(parsed.warnings().get(0).contains("same tools' namespace"));
    }

    @Test
    void acpArrayOfStdioHttpAndSse() throws Exception {
        McpConfig.Parsed parsed = McpConfig.fromAcp(json("""
                [{"name": "everything", "command": "node", "args": ["e.js"], "env": [{"name": "A", "value": "1"}]},
                 {"type": "http", "name": "remote", "url": "http://localhost:1/mcp", "headers": [{"name": "X-K", "value": "v"}]},
                 {"type": "sse", "name": "legacy", "url": "http://localhost:1/sse", "headers": []},
                 {"type": "ws", "name": "nope", "url": "ws://x"},
                 {"name": "", "command": "x"}]
                """), CWD);
        assertEquals(List.of("everything", "remote", "legacy"), parsed.servers().stream().map(McpServerSpec::name).toList());
        McpServerSpec.Stdio stdio = (McpServerSpec.Stdio) parsed.servers().get(0).transport();
        assertEquals(Map.of("A", "1"), stdio.env());
        assertEquals(CWD, stdio.cwd());
        assertEquals(Map.of("X-K", "v"), ((McpServerSpec.Http) parsed.servers().get(1).transport()).headers());
        assertEquals(2, parsed.warnings().size(), parsed.warnings().toString());
    }

    @Test
    void theNumberOfServersIsBounded() throws Exception {
        StringBuilder many = new StringBuilder("{");
        for (int i = 0; i < McpConfig.MAX_SERVERS + 5; i++) {
            many.append(i == 0 ? "" : ",").append("\"s").append(i).append("\":{\"command\":\"x\"}");
        }
        McpConfig.Parsed parsed = McpConfig.fromSettings(json(many + "}"), CWD, name -> null);
        assertEquals(McpConfig.MAX_SERVERS, parsed.servers().size());
        assertEquals(1, parsed.warnings().size());
    }

    @Test
    void theServerEnvironmentIsTheBaseSetPlusItsOwn() {
        Map<String, String> env = StdioTransport.environment(
                Map.of("PATH", "/bin", "HOME", "/h", "ANTHROPIC_API_KEY", "sk-ant-x", "AWS_SECRET_ACCESS_KEY", "y"),
                Map.of("TOKEN", "t"));
        assertEquals(Map.of("PATH", "/bin", "HOME", "/h", "TOKEN", "t"), env);
    }
}
