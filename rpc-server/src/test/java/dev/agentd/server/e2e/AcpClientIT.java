package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official ACP TypeScript SDK (npm, installed once into {@code target/acp-client}) drives the
 * real jar in {@code --mode acp} ({@code src/test/node/acp-drive.mjs}) with the faux model: a
 * streamed answer, a retry notice, cancel during a backoff, a write through the editor, a
 * fallback, config options, a final failure and two concurrent sessions; then (issue 26) the auth
 * method and {@code authenticate}, {@code compaction_update} (an overflow's and {@code /compact}'s), the legacy {@code session/set_model},
 * the context meter and auth-required error after a rejected key, a busy session's error, retry
 * chains as a tool-call card for a client without notices and
 * {@code session/list} without {@code cwd}. Skipped when node or npm is missing.
 */
class AcpClientIT {
    static final List<String> PACKAGES = List.of("@agentclientprotocol/sdk@2.4.0", "zod@4.6.7");
    static final Path INSTALL = Path.of("target/acp-client").toAbsolutePath();
    static final Path NODE_SOURCES = Path.of("src/test/node").toAbsolutePath();

    @TempDir
    Path dir;

    static Path installedSdk() throws IOException, InterruptedException {
        Path sdk = INSTALL.resolve("node_modules/@agentclientprotocol/sdk");
        NodeDrivers.install(INSTALL, PACKAGES, List.of(sdk.resolve("dist/v1/acp.js"), INSTALL.resolve("node_modules/zod")));
        return sdk;
    }

    private static String arguments(Path script) throws IOException {
        // Both agents share one session directory: the second lists and loads the first one's sessions.
        return Json.mapper().writeValueAsString(List.of("--session-dir", script.resolveSibling("sessions").toString(),
                "--model", "faux/faux-1", "--faux-script", script.toString()));
    }

    @Test
    void theOfficialSdkDrivesAnAcpSession() throws Exception {
        assumeTrue(ExternalTools.find("node").isPresent() && ExternalTools.find("npm").isPresent(),
                "node and npm are needed for the ACP SDK");
        Path sdk = installedSdk();
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.createDirectories(agent.resolve("prompts"));
        Files.writeString(agent.resolve("prompts/greet.md"), "---\ndescription: Greet someone\n---\nSay hello to $1 politely.\n");
        Files.writeString(agent.resolve("settings.json"), """
                {"retry":{"baseDelayMs":200,"maxRetries":2,"maxRetryDelayMs":60000,
                          "fallbackChains":{"faux/faux-1":["faux/faux-2"]}},
                 "acp":{"permissions":"ask"}}
                """);
        // Unbound steps are taken in order by whichever model asks; faux-2's own steps wait for it.
        Files.writeString(dir.resolve("script.json"), """
                [{"text":"Hello from agentd, in chunks."},
                 {"error":"529 overloaded","status":529},
                 {"text":"recovered"},
                 {"toolCalls":[{"name":"write","arguments":{"path":"notes/out.txt","content":"from the editor"}}]},
                 {"text":"wrote it"},
                 {"toolCalls":[{"name":"edit","arguments":{"path":"notes/out.txt","oldText":"editor","newText":"open editor"}}]},
                 {"toolCalls":[{"name":"edit","arguments":{"path":"notes/out.txt","oldText":"the open","newText":"the open buffer"}}]},
                 {"text":"edited"},
                 {"toolCalls":[{"name":"read","arguments":{"path":"notes/out.txt"}}]},
                 {"text":"read it"},
                 {"toolCalls":[{"name":"bash","arguments":{"command":"echo from the terminal; test -z ${AGENTD_COMMAND_ID:-} || touch ran-locally; exit 3"}}]},
                 {"text":"ran it"},
                 {"error":"529 overloaded","status":529},
                 {"error":"529 overloaded","status":529},
                 {"error":"529 overloaded","status":529},
                 {"model":"faux-2","text":"faux-2 answers"},
                 {"model":"faux-2","error":"529 overloaded","status":529},
                 {"model":"faux-2","error":"529 overloaded","status":529},
                 {"model":"faux-2","error":"529 overloaded","status":529},
                 {"text":"parallel one","chunkDelayMs":50},
                 {"text":"parallel two","chunkDelayMs":50}]
                """);
        Path slowAgent = Files.createDirectories(dir.resolve("slow-agent"));
        Files.writeString(slowAgent.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":30000,\"maxRetries\":1}}");
        Files.writeString(dir.resolve("slow.json"), "[{\"error\":\"529 overloaded\",\"status\":529}]");
        // The third agent: an overflow compacted (its summary is the next step), a rejected key, a slow
        // answer, /compact's summary, then a retry that recovers.
        Path thirdAgent = Files.createDirectories(dir.resolve("third-agent"));
        Files.writeString(dir.resolve("third.json"), "[{\"text\":\"a1\"},{\"error\":" + Json.mapper().writeValueAsString(
                "400 {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: "
                        + "213462 tokens > 200000 maximum\"}}") + ",\"status\":400},"
                + "{\"text\":\"summary of q1\"},{\"text\":\"a2\"},{\"error\":\"401 invalid x-api-key\",\"status\":401},"
                + "{\"text\":\"slow answer\",\"delayMs\":1500},{\"text\":\"manual summary\"},"
                + "{\"error\":\"529 overloaded\",\"status\":529},{\"text\":\"recovered\"}]");
        Files.writeString(thirdAgent.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":200,\"maxRetries\":2}}");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ExternalTools.Result run = ExternalTools.run(List.of(ExternalTools.find("node").get().toString(),
                NODE_SOURCES.resolve("acp-drive.mjs").toString(), sdk.toString(), work.toString()), work,
                Map.of("AGENTD_DIR", agent.toString(), "AGENTD_JAR", DaemonProcess.jar().toString(),
                        "AGENTD_JAVA", java, "AGENTD_FAUX_CHUNK_DELAY_MS", "1",
                        "AGENTD_ARGS", arguments(dir.resolve("script.json")),
                        "AGENTD_SLOW_DIR", slowAgent.toString(), "AGENTD_SLOW_ARGS", arguments(dir.resolve("slow.json")),
                        "AGENTD_THIRD_DIR", thirdAgent.toString(), "AGENTD_THIRD_ARGS", arguments(dir.resolve("third.json"))),
                240);
        NodeDrivers.assertAllChecksPassed(run, 75);
    }
}
