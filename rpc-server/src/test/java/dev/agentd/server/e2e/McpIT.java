package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers from settings.json in a pi-dialect session, through the real jar: the reference
 * servers from npm ({@code @modelcontextprotocol/server-everything} over stdio, over Streamable
 * HTTP and over the legacy SSE transport, {@code @modelcontextprotocol/server-filesystem} over
 * stdio) and a hostile one ({@code src/test/node/mcp-hostile.mjs}). Skipped without node and npm.
 */
class McpIT {
    static final String VERSION = "2026.8.31";
    static final List<String> PACKAGES = List.of("@modelcontextprotocol/server-everything@" + VERSION,
            "@modelcontextprotocol/server-filesystem@" + VERSION);
    static final Path INSTALL = Path.of("target/mcp-servers").toAbsolutePath();
    static final Path EVERYTHING = INSTALL.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    static final Path FILESYSTEM = INSTALL.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    static final Path HOSTILE = Path.of("src/test/node/mcp-hostile.mjs").toAbsolutePath();
    private static final String SECRET = "sk-ant-mcp-it-never-leaks-0123456789";

    @TempDir
    Path dir;
    DaemonProcess daemon;
    Process http;
    Process sse;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
            assertEquals(List.of(), daemon.nonJsonLines(), "stdout carries protocol records only");
            assertFalse(daemon.stderr().contains(SECRET), "the provider key never reaches stderr");
            assertFalse(String.join("\n", daemon.rawLines()).contains(SECRET), "nor stdout");
        }
        for (Process process : new Process[] {http, sse}) {
            if (process != null) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
    }

    static void installServers() throws IOException, InterruptedException {
        assumeTrue(ExternalTools.find("node").isPresent() && ExternalTools.find("npm").isPresent(),
                "node and npm are needed for the reference MCP servers");
        NodeDrivers.install(INSTALL, PACKAGES, List.of(EVERYTHING, FILESYSTEM));
    }

    private static String call(String name, String arguments) {
        return "{\"toolCall\":{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}}";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** server-everything listening on {@code port} with the given transport ("streamableHttp" or "sse"). */
    private static Process everythingOver(String transport, int port) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(ExternalTools.find("node").get().toString(), EVERYTHING.toString(),
                transport).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("PORT", String.valueOf(port));
        Process process = builder.start();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return true;
            }
        });
        return process;
    }

    private List<JsonNode> toolEnds() {
        return daemon.records().stream().filter(r -> "tool_execution_end".equals(r.path("type").asText())).toList();
    }

    private static String text(JsonNode toolEnd) {
        return toolEnd.path("result").path("content").get(0).path("text").asText();
    }

    @Test
    void aPiSessionCallsTheReferenceServersOverStdioHttpAndSse() throws Exception {
        installServers();
        int httpPort = freePort();
        int ssePort = freePort();
        http = everythingOver("streamableHttp", httpPort);
        sse = everythingOver("sse", ssePort);
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("notes.txt"), "notes for the filesystem server\n");
        String node = ExternalTools.find("node").get().toString();
        Files.writeString(agent.resolve("settings.json"), Json.mapper().writeValueAsString(Map.of("mcpServers", Map.of(
                "everything", Map.of("command", node, "args", List.of(EVERYTHING.toString(), "stdio"),
                        "env", Map.of("MCP_GREETING", "${MCP_IT_GREETING}")),
                "files", Map.of("command", node, "args", List.of(FILESYSTEM.toString(), work.toString())),
                "web", Map.of("url", "http://127.0.0.1:" + httpPort + "/mcp", "headers", Map.of("X-Test", "yes")),
                "legacy", Map.of("url", "http://127.0.0.1:" + ssePort + "/sse"),
                "broken", Map.of("command", "/nonexistent/mcp-server")))));
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[" + String.join(",",
                call("mcp__everything__echo", "{\"message\":\"hello over stdio\"}"),
                call("mcp__everything__get_env", "{}"),
                call("mcp__everything__get_tiny_image", "{}"),
                call("mcp__everything__get_resource_reference", "{\"resourceType\":\"Text\",\"resourceId\":2}"),
                call("mcp__everything__trigger_long_running_operation", "{\"duration\":1,\"steps\":3}"),
                call("mcp__files__read_text_file", Json.mapper().writeValueAsString(
                        Map.of("path", work.resolve("notes.txt").toString()))),
                call("mcp__web__echo", "{\"message\":\"hello over http\"}"),
                call("mcp__legacy__get_sum", "{\"a\":2,\"b\":3}"),
                call("mcp__broken__anything", "{}"),
                "{\"text\":\"all done\"}") + "]");
        daemon = DaemonProcess.start(agent, work, Map.of("ANTHROPIC_API_KEY", SECRET, "MCP_IT_GREETING", "bonjour"),
                "--faux-script", script.toString(), "--no-session", "--model", "faux/faux-1");
        daemon.send(command("prompt", "p", "message", "use the servers"));
        daemon.awaitNth("agent_end", 1);

        List<JsonNode> ends = toolEnds();
        assertEquals(9, ends.size(), ends.toString());
        assertEquals("Echo: hello over stdio", text(ends.get(0)));
        String env = text(ends.get(1));
        assertTrue(env.contains("\"MCP_GREETING\": \"bonjour\"") || env.contains("\"MCP_GREETING\":\"bonjour\""), env);
        assertFalse(env.contains("ANTHROPIC_API_KEY"), "a server gets only the environment its entry names: " + env);
        JsonNode image = ends.get(2).path("result").path("content");
        assertTrue(StreamSupport.stream(image.spliterator(), false)
                .anyMatch(block -> "image".equals(block.path("type").asText())), image.toString());
        assertTrue(text(ends.get(3)).contains("[resource "), text(ends.get(3)));
        assertTrue(text(ends.get(4)).contains("Long running operation completed"), text(ends.get(4)));
        assertTrue(daemon.records().stream().anyMatch(r -> "tool_execution_update".equals(r.path("type").asText())
                && r.path("partialResult").toString().contains("progress 1/3")), "progress reaches the client");
        assertTrue(text(ends.get(5)).contains("notes for the filesystem server"), text(ends.get(5)));
        assertEquals("Echo: hello over http", text(ends.get(6)));
        assertTrue(text(ends.get(7)).contains("5"), text(ends.get(7)));
        assertTrue(ends.get(8).path("isError").asBoolean());
        for (int i = 0; i < 8; i++) {
            assertFalse(ends.get(i).path("isError").asBoolean(), ends.get(i).toString());
        }

        JsonNode state = daemon.request(command("get_state", "s")).path("data");
        Map<String, JsonNode> servers = new java.util.HashMap<>();
        state.path("mcpServers").forEach(server -> servers.put(server.path("name").asText(), server));
        assertEquals("connected", servers.get("everything").path("status").asText(), state.toString());
        assertEquals("stdio", servers.get("everything").path("transport").asText());
        assertTrue(servers.get("everything").path("tools").asInt() >= 10, state.toString());
        assertEquals("connected", servers.get("files").path("status").asText());
        assertEquals("http", servers.get("web").path("transport").asText());
        assertEquals("sse", servers.get("legacy").path("transport").asText(), "an SSE-only server is reached by the fallback");
        assertEquals("failed", servers.get("broken").path("status").asText());
        assertTrue(servers.get("broken").path("error").asText().contains("no executable file there"), state.toString());
        assertTrue(state.path("warnings").toString().contains("MCP server 'broken'"), state.toString());
    }

    @Test
    void aHostileServerCannotWedgeTheSessionNorOutliveIt() throws Exception {
        installServers();
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Path pidFile = dir.resolve("grandchild.pid");
        String node = ExternalTools.find("node").get().toString();
        Files.writeString(agent.resolve("settings.json"), Json.mapper().writeValueAsString(Map.of("mcpServers", Map.of(
                "hostile", Map.of("command", node, "args", List.of(HOSTILE.toString(), pidFile.toString()), "timeout", 2),
                "forker", Map.of("command", node, "args", List.of(HOSTILE.toString(), pidFile.toString()))))));
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[" + String.join(",",
                call("mcp__hostile__evil_name_", "{}"),
                call("mcp__hostile__junk", "{}"),
                call("mcp__hostile__grow", "{}"),
                // a model's think time: the SDK lists the tools again when the notice arrives, after the result
                "{\"delayMs\":2000," + call("mcp__hostile__grown", "{}").substring(1),
                call("mcp__hostile__silent", "{}"),
                call("mcp__hostile__huge", "{}"),
                call("mcp__hostile__junk", "{}"),
                call("mcp__forker__fork_and_exit", "{}"),
                call("read", "{\"path\":\"nothing-here.txt\"}"),
                "{\"text\":\"still here\"}") + "]");
        daemon = DaemonProcess.start(agent, work, Map.of("ANTHROPIC_API_KEY", SECRET),
                "--faux-script", script.toString(), "--no-session", "--model", "faux/faux-1", "--tools", "read");
        daemon.send(command("prompt", "p", "message", "go"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        assertTrue(end.toString().contains("still here"), "the run ends normally");

        List<JsonNode> ends = toolEnds();
        assertEquals(9, ends.size(), ends.toString());
        assertEquals("called \"evil\\nname\\u0007\"", text(ends.get(0)), "a control-character name is reachable, sanitized");
        assertEquals("junk survived", text(ends.get(1)), "junk lines and an answer to nobody are skipped");
        assertEquals("called \"grown\"", text(ends.get(3)), "a tools/list_changed notice brings the new tool");
        assertTrue(text(ends.get(4)).contains("did not answer silent within 2 s"), text(ends.get(4)));
        assertTrue(text(ends.get(5)).contains("over 16 MB"), text(ends.get(5)));
        // A server whose connection ended offers no tools: the model is told this one is gone.
        assertTrue(text(ends.get(6)).contains("Tool mcp__hostile__junk not found"), text(ends.get(6)));
        long grandchild = Long.parseLong(Files.readString(pidFile).strip());
        // The forker exited: its connection ended, and the grandchild it left behind is stopped with it.
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(grandchild).map(h -> !h.isAlive()).orElse(true));
        JsonNode state = daemon.request(command("get_state", "s")).path("data");
        assertTrue(state.path("warnings").toString().contains("MCP server 'forker' ended its connection"), state.toString());
        assertTrue(daemon.records().stream().noneMatch(r -> r.toString().contains("xxxxxxxxxxxxxxxxxxxx")),
                "nothing of the huge line reaches stdout");
    }

    /** Start-up with no MCP server configured must not move: neither the SDK nor reactor is loaded. */
    @Test
    void aDaemonWithoutMcpServersLoadsNoMcpClass() throws Exception {
        Path classLog = dir.resolve("classes.log");
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        try (DaemonProcess plain = DaemonProcess.start(agent, work,
                Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classLog), "--no-session",
                "--model", "faux/faux-1")) {
            plain.awaitNth("ready", 1);
            plain.send(command("prompt", "p", "message", "hello"));
            plain.awaitNth("agent_end", 1);
            JsonNode state = plain.request(command("get_state", "s"));
            assertTrue(state.path("data").path("mcpServers").isMissingNode(), state.toString());
            assertEquals(0, plain.closeStdinAndWait());
        }
        String log = Files.readString(classLog);
        assertFalse(log.contains("io.modelcontextprotocol"), "an MCP SDK class was loaded without a server");
        assertFalse(log.contains("reactor.core"), "reactor was loaded without a server");
        assertFalse(log.contains("dev.agentd.server.mcp."), "agentd's MCP classes were loaded without a server");
    }
}
