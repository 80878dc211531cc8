package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Node test peers (pi's RpcClient, the ACP SDK): npm packages installed once into a scratch
 * prefix under {@code target/}, and the report a driver script prints as its last stdout line,
 * {@code {checks:[{name, ok, detail}]}}.
 */
final class NodeDrivers {
    private NodeDrivers() {}

    /** Installs {@code packages} into {@code prefix} unless every path of {@code installed} exists already. */
    static void install(Path prefix, List<String> packages, List<Path> installed)
            throws IOException, InterruptedException {
        if (installed.stream().allMatch(Files::exists)) {
            return;
        }
        Path npm = ExternalTools.find("npm").orElseThrow();
        Files.createDirectories(prefix);
        List<String> command = new ArrayList<>(List.of(npm.toString(), "install", "--prefix", prefix.toString(),
                "--no-audit", "--no-fund", "--ignore-scripts"));
        command.addAll(packages);
        ExternalTools.Result install = ExternalTools.run(command, prefix, Map.of(), 600);
        assertEquals(0, install.exitCode(), "npm install failed: " + ExternalTools.tail(install.stderr()));
    }

    /** The driver ran at least {@code minChecks} checks, every one passed, and it exited 0. */
    static void assertAllChecksPassed(ExternalTools.Result run, int minChecks) throws IOException {
        String out = run.stdout().strip();
        String lastLine = out.isEmpty() ? "{}" : out.lines().reduce((a, b) -> b).orElse("{}");
        JsonNode report = Json.mapper().readTree(lastLine);
        List<String> failed = new ArrayList<>();
        report.path("checks").forEach(check -> {
            if (!check.path("ok").asBoolean()) {
                failed.add(check.path("name").asText() + ": " + check.path("detail"));
            }
        });
        assertTrue(report.path("checks").size() >= minChecks, "driver report: " + run.stdout() + "\nstderr: "
                + ExternalTools.tail(run.stderr()));
        assertEquals(List.of(), failed, "stderr: " + ExternalTools.tail(run.stderr()));
        assertEquals(0, run.exitCode());
    }
}
