package dev.agentd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agentd trust [DIR]} (adversarial N1): parsed apart from the daemon's options, records the real path. */
class TrustCommandTest {
    @TempDir
    Path dir;

    @Test
    void theSubcommandIsRecognisedOnlyFirstAndTakesOneDirectory() throws Exception {
        assertEquals(Optional.empty(), CliOptions.trustTarget());
        assertEquals(Optional.empty(), CliOptions.trustTarget("--mode", "acp"));
        assertEquals(Optional.of(Path.of("")), CliOptions.trustTarget("trust"));
        assertEquals(Optional.of(Path.of("../repo")), CliOptions.trustTarget("trust", "../repo"));
        assertThrows(CliOptions.UsageException.class, () -> CliOptions.trustTarget("trust", "a", "b"));
        assertThrows(CliOptions.UsageException.class, () -> CliOptions.trustTarget("trust", "--mode"));
        assertThrows(CliOptions.UsageException.class, () -> CliOptions.parse("--mode", "acp", "trust"),
                "not a subcommand anywhere but first");
    }

    @Test
    void recordsTheRealPathOfTheDirectoryAndSaysSoInOneLine() throws IOException {
        Path project = Files.createDirectories(dir.resolve("repo"));
        Path cwd = Files.createSymbolicLink(dir.resolve("link"), project);
        Path global = dir.resolve("agent/settings.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = TrustCommand.run(Path.of(""), cwd, global, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, printed.lines().count(), printed);
        assertTrue(printed.contains("trusted " + project.toRealPath()) && printed.contains("acp.permissions"), printed);
        assertEquals(project.toRealPath().toString(), Json.mapper().readTree(Files.readString(global))
                .path("trust").path("projects").path(0).asText());
    }

    @Test
    void aMissingDirectoryIsRefusedWithTheReason() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = TrustCommand.run(Path.of("nope"), dir, dir.resolve("agent/settings.json"),
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("cannot trust nope: no such directory"),
                err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.notExists(dir.resolve("agent/settings.json")), "nothing written");
    }
}
