package dev.agentd.server.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentd.protocol.json.Json;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26's editor session, driven by the official ACP TypeScript SDK ({@code
 * src/test/node/acp-mcp-drive.mjs}; every message schema-checked) against the real jar: MCP servers
 * from {@code session/new} (the reference server-everything over stdio and over Streamable HTTP,
 * and one that cannot start, reported as a notice), permission asked for MCP tools, authenticate,
 * the model switched by the config option and by the legacy {@code session/set_model}, and
 * {@code compaction_update} for {@code /compact}. Skipped without node and npm.
 */
class AcpMcpIT {
    @TempDir
    Path dir;
    Process http;

    @AfterEach
    void stopServer() {
        if (http != null) {
            http.descendants().forEach(ProcessHandle::destroyForcibly);
            http.destroyForcibly();
        }
    }

    @Test
    void anEditorSessionUsesItsMcpServersAuthenticatesSwitchesModelsAndCompacts() throws Exception {
        assumeTrue(ExternalTools.find("node").isPresent() && ExternalTools.find("npm").isPresent(),
                "node and npm are needed for the ACP SDK and the MCP servers");
        Path sdk = AcpClientIT.installedSdk();
        McpIT.installServers();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ProcessBuilder server = new ProcessBuilder(ExternalTools.find("node").get().toString(),
                McpIT.EVERYTHING.toString(), "streamableHttp").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        server.environment().put("PORT", String.valueOf(port));
        http = server.start();
        int listening = port;
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            try (Socket socket = new Socket("127.0.0.1", listening)) {
                return true;
            }
        });
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(agent.resolve("settings.json"), "{\"acp\":{\"permissions\":\"ask\"}}");
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[{\"toolCalls\":[{\"name\":\"mcp__everything__echo\",\"arguments\":"
                + "{\"message\":\"from the editor\"}}]},{\"text\":\"echoed\"},"
                + "{\"toolCalls\":[{\"name\":\"mcp__web__echo\",\"arguments\":{\"message\":\"over http\"}}]},"
                + "{\"text\":\"echoed again\"},{\"text\":\"the summary\"}]");
        String args = Json.mapper().writeValueAsString(List.of("--session-dir", dir.resolve("sessions").toString(),
                "--model", "faux/faux-1", "--faux-script", script.toString()));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ExternalTools.Result run = ExternalTools.run(List.of(ExternalTools.find("node").get().toString(),
                AcpClientIT.NODE_SOURCES.resolve("acp-mcp-drive.mjs").toString(), sdk.toString(), work.toString()),
                work, Map.of("AGENTD_DIR", agent.toString(), "AGENTD_JAR", DaemonProcess.jar().toString(),
                        "AGENTD_JAVA", java, "AGENTD_FAUX_CHUNK_DELAY_MS", "1", "AGENTD_ARGS", args,
                        "MCP_EVERYTHING", McpIT.EVERYTHING.toString(),
                        "MCP_HTTP_URL", "http://127.0.0.1:" + port + "/mcp"),
                180);
        NodeDrivers.assertAllChecksPassed(run, 16);
    }
}
