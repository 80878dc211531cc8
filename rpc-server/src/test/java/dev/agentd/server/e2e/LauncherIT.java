package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.Waits;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/agentd's AppCDS archive: the first launch answers normally (stdout only protocol records)
 * while it trains the archive in the background; the archive appears next to the jar; the next
 * launch maps it (with {@code -Xshare:on} the JVM would refuse to start otherwise).
 */
class LauncherIT {
    @TempDir
    Path dir;

    @Test
    void theFirstLaunchTrainsAnArchiveThatTheNextLaunchUses() throws Exception {
        Path jar = DaemonProcess.jar();
        Path target = jar.getParent();
        Path launcher = target.getParent().getParent().resolve("bin/agentd");
        assertTrue(Files.isExecutable(launcher), launcher.toString());
        for (Path old : archives(target)) {
            Files.delete(old);
        }

        Launch first = launch(launcher, Map.of());
        assertEquals(0, first.exitCode(), first.stderr());
        assertFalse(first.stderr().contains("building"), "the jar is fresh: no rebuild\n" + first.stderr());

        Waits.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> archives(target).stream().anyMatch(archive -> archive.toString().endsWith(".jsa")
                        && archive.toFile().lastModified() >= jar.toFile().lastModified()));

        Launch second = launch(launcher, Map.of("AGENTD_JAVA_OPTS", "-Xshare:on"));
        assertEquals(0, second.exitCode(), second.stderr());
    }

    private record Launch(int exitCode, String stderr) {}

    /** Runs the launcher with get_state then EOF; every stdout line must be a JSON record. */
    private Launch launch(Path launcher, Map<String, String> env) throws IOException, InterruptedException {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "--no-session").directory(dir.toFile())
                .redirectError(dir.resolve("stderr.txt").toFile());
        builder.environment().put("AGENTD_DIR", agentDir.toString());
        builder.environment().remove("AGENTD_CDS");
        builder.environment().putAll(env);
        Process process = builder.start();
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write("{\"type\":\"get_state\",\"id\":\"launch\"}\n".getBytes(StandardCharsets.UTF_8));
        }
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the daemon exits after EOF");
        String stderr = Files.readString(dir.resolve("stderr.txt"));
        List<String> types = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            JsonNode record = Json.mapper().readTree(line); // throws on anything that is not JSON
            assertTrue(record.isObject(), line);
            types.add(record.path("type").asText());
        }
        assertEquals(List.of("ready", "response"), types, stdout + stderr);
        return new Launch(process.exitValue(), stderr);
    }

    private static List<Path> archives(Path target) throws IOException {
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(file -> file.getFileName().toString().startsWith("agentd-")
                    && file.getFileName().toString().contains(".jsa")).toList();
        }
    }
}
