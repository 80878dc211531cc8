package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pi 0.73.1's own {@code RpcClient} (the npm package, installed once into {@code target/pi-client})
 * drives the real jar through every method it has ({@code src/test/node/pi-client-drive.mjs}). Skipped
 * when node or npm is missing; the install is reused by later runs.
 */
class PiClientIT {
    static final String PACKAGE = "@mariozechner/pi-coding-agent@0.73.1";
    static final Path INSTALL = Path.of("target/pi-client").toAbsolutePath();
    static final Path NODE_SOURCES = Path.of("src/test/node").toAbsolutePath();

    @TempDir
    Path dir;

    static Path installedPackage() throws IOException, InterruptedException {
        Path pkg = INSTALL.resolve("node_modules/@mariozechner/pi-coding-agent");
        NodeDrivers.install(INSTALL, List.of(PACKAGE), List.of(pkg.resolve("dist/modes/rpc/rpc-client.js")));
        return pkg;
    }

    @Test
    void piRpcClientDrivesEveryMethod() throws Exception {
        assumeTrue(ExternalTools.find("node").isPresent() && ExternalTools.find("npm").isPresent(),
                "node and npm are needed for pi's RpcClient");
        Path pkg = installedPackage();
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.createDirectories(agent.resolve("prompts"));
        Files.writeString(agent.resolve("prompts/greet.md"), "---\ndescription: Greet someone\n---\nSay hello to $1 politely.\n");
        // replies in the order the driver prompts; the first bash call finishes only once the second ran;
        // the slow reply pauses 1.5 s between its two chunks, and the driver steers in that pause
        Files.writeString(dir.resolve("script.json"), """
                [{"text":"hi Bob"},
                 {"toolCalls":[{"name":"bash","arguments":{"command":"for i in $(seq 400); do [ -f b.done ] && break; sleep 0.05; done; echo A"}},
                               {"name":"bash","arguments":{"command":"touch b.done; echo B"}}]},
                 {"text":"tools done"},
                 {"text":"slow reply that streams","chunkDelayMs":1500},
                 {"text":"after steer"},
                 {"text":"after follow-up"}]
                """);
        ExternalTools.Result run = ExternalTools.run(List.of(ExternalTools.find("node").get().toString(),
                NODE_SOURCES.resolve("pi-client-drive.mjs").toString(), pkg.toString(),
                NODE_SOURCES.resolve("agentd-shim.mjs").toString(), work.toString()), work,
                Map.of("AGENTD_DIR", agent.toString(), "AGENTD_JAR", DaemonProcess.jar().toString(),
                        "AGENTD_FAUX_CHUNK_DELAY_MS", "1"), 180);
        NodeDrivers.assertAllChecksPassed(run, 30);
    }
}
