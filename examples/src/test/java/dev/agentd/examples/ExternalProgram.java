package dev.agentd.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a non-Java example (bash, python3) to completion and captures what it printed. */
record ExternalProgram(int exitCode, String stdout, String stderr) {

    /** True when {@code command} can be run here (e.g. {@code jq --version}). */
    static boolean available(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Runs {@code command} in the repository root with {@code env} added, its stdin closed, and
     * the daemon it starts pointed at the built jar through {@code AGENTD_CMD}.
     */
    static ExternalProgram run(Path workDir, Map<String, String> env, String... command) throws Exception {
        Path stdout = workDir.resolve("stdout.txt");
        Path stderr = workDir.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(List.of(command))
                .directory(TestDaemon.repoRoot().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        builder.environment().put("AGENTD_CMD", javaBinary() + " -jar " + TestDaemon.jar());
        builder.environment().putAll(env);
        Process process = builder.start();
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);
        if (!ended) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        assertTrue(ended, "still running after 2 minutes: " + String.join(" ", command)
                + "\nstderr: " + Files.readString(stderr));
        return new ExternalProgram(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
