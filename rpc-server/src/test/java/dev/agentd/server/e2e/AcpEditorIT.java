package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentd.protocol.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26's editor findings, driven by the official ACP TypeScript SDK ({@code
 * src/test/node/acp-editor-drive.mjs}, every message schema-checked by the SDK) against the real
 * jar with the faux model: the whole history replayed after a compaction (A1/Z5), the editor
 * terminal embedded in bash's card (A6/Z6), a {@code messageId} per reply so a mid-stream failure's
 * text stays apart from the retried answer (A3/Z2), a call pending while permission is asked and a
 * readable cancel during the ask (A11), {@code session/fork}, the opt-in {@code todo} tool as a
 * {@code plan}, and {@code available_commands_update} after a template is added. Skipped without node.
 */
class AcpEditorIT {
    @TempDir
    Path dir;

    @Test
    void anEditorSeesTheWholeThreadLiveTerminalsPlansAndForks() throws Exception {
        assumeTrue(ExternalTools.find("node").isPresent() && ExternalTools.find("npm").isPresent(),
                "node and npm are needed for the ACP SDK");
        Path sdk = AcpClientIT.installedSdk();
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.createDirectories(agent.resolve("prompts"));
        Files.writeString(agent.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":200,\"maxRetries\":2}}");
        String overflow = Json.mapper().writeValueAsString("400 {\"type\":\"error\",\"error\":{\"type\":"
                + "\"invalid_request_error\",\"message\":\"prompt is too long: 213462 tokens > 200000 maximum\"}}");
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[{\"text\":\"a1\"},"
                + "{\"error\":" + overflow + ",\"status\":400},{\"text\":\"summary of q1\"},{\"text\":\"a2\"},"
                + "{\"toolCalls\":[{\"name\":\"bash\",\"arguments\":{\"command\":\"echo live output\"}}]},{\"text\":\"ran\"},"
                + "{\"toolCalls\":[{\"name\":\"todo\",\"arguments\":{\"todos\":[{\"content\":\"read the code\","
                + "\"status\":\"completed\",\"priority\":\"high\"},{\"content\":\"fix it\",\"status\":\"in_progress\"}]}}]},"
                + "{\"text\":\"planned\"},"
                + "{\"text\":\"partial words that will be\",\"error\":\"529 overloaded\",\"status\":529},"
                + "{\"text\":\"complete answer\"},"
                + "{\"toolCalls\":[{\"name\":\"write\",\"arguments\":{\"path\":\"x.txt\",\"content\":\"y\"}}]},"
                + "{\"text\":\"fork answers\"}]");
        String args = Json.mapper().writeValueAsString(List.of("--session-dir", dir.resolve("sessions").toString(),
                "--model", "faux/faux-1", "--faux-script", script.toString(), "--tools", "read,write,edit,bash,todo"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ExternalTools.Result run = ExternalTools.run(List.of(ExternalTools.find("node").get().toString(),
                AcpClientIT.NODE_SOURCES.resolve("acp-editor-drive.mjs").toString(), sdk.toString(), work.toString()),
                work, Map.of("AGENTD_DIR", agent.toString(), "AGENTD_JAR", DaemonProcess.jar().toString(),
                        "AGENTD_JAVA", java, "AGENTD_FAUX_CHUNK_DELAY_MS", "1", "AGENTD_ARGS", args),
                180);
        NodeDrivers.assertAllChecksPassed(run, 25);
    }
}
