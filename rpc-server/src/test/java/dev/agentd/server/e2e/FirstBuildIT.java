package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/agentd's first build (issue 17 point 10), in a scratch copy of the launcher whose jar is
 * missing: with a stand-in {@code mvn} it says what it does and how long it takes, on stderr only
 * and with no colour codes; without Maven it says what is needed and exits 1.
 */
class FirstBuildIT {
    @TempDir
    Path dir;

    private Path scratchRoot() throws IOException {
        Path launcher = DaemonProcess.jar().getParent().getParent().getParent().resolve("bin/agentd");
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.createDirectories(root.resolve("bin"));
        Files.copy(launcher, root.resolve("bin/agentd"));
        Files.createDirectories(root.resolve("rpc-server/target"));
        return root;
    }

    /** A PATH holding only bash, java and whatever {@code extra} names. */
    private Path path(Map<String, String> extra) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("path"));
        Files.createSymbolicLink(bin.resolve("bash"), Path.of("/bin/bash").toRealPath());
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        for (String tool : new String[] {"sed", "sleep", "stat", "env", "cat"}) {
            for (String where : new String[] {"/bin/", "/usr/bin/"}) {
                Path found = Path.of(where + tool);
                if (Files.exists(found) && !Files.exists(bin.resolve(tool))) {
                    Files.createSymbolicLink(bin.resolve(tool), found.toRealPath());
                }
            }
        }
        for (Map.Entry<String, String> script : extra.entrySet()) {
            Path file = Files.writeString(bin.resolve(script.getKey()), script.getValue());
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return bin;
    }

    private record Run(int code, String stdout, String stderr) {}

    private Run run(Path root, Path path) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(root.resolve("bin/agentd").toString(), "--no-session")
                .directory(dir.toFile()).redirectError(dir.resolve("stderr.txt").toFile());
        builder.environment().put("PATH", path.toString());
        builder.environment().put("AGENTD_DIR", Files.createDirectories(dir.resolve("agent")).toString());
        builder.environment().put("AGENTD_CDS", "off");
        builder.environment().put("REAL_JAR", DaemonProcess.jar().toString());
        Process process = builder.start();
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write("{\"type\":\"get_state\",\"id\":\"s\"}\n".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the launcher exited before reading stdin
        }
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new Run(process.exitValue(), stdout, Files.readString(dir.resolve("stderr.txt")));
    }

    @Test
    void withoutMavenItSaysWhatIsNeededAndExits1() throws Exception {
        Run run = run(scratchRoot(), path(Map.of()));
        assertEquals(1, run.code(), run.stderr());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().contains("needs Maven 3.8 or newer (mvn) on PATH"), run.stderr());
    }

    @Test
    void theFirstBuildReportsOnStderrWithoutColourCodes() throws Exception {
        // A stand-in for Maven that prints colour codes (as some versions do even with -B) and builds the jar.
        String mvn = "#!/bin/bash\nprintf '\\033[0m\\033[1;33m[WARNING] stand-in build\\033[0m\\n'\n"
                + "cat \"$REAL_JAR\" > rpc-server/target/agentd.jar\n";
        Run run = run(scratchRoot(), path(Map.of("mvn", mvn)));
        assertEquals(0, run.code(), run.stderr());
        assertTrue(run.stderr().contains("(first run or sources changed); this takes about"), run.stderr());
        assertTrue(run.stderr().contains("[WARNING] stand-in build"), run.stderr());
        assertTrue(run.stderr().contains("agentd: built in "), run.stderr());
        assertFalse(run.stderr().contains("\u001b"), run.stderr());
        assertFalse(run.stdout().contains("stand-in"), run.stdout());
        for (String line : run.stdout().split("\n")) {
            assertTrue(line.startsWith("{"), line);
        }
    }
}
