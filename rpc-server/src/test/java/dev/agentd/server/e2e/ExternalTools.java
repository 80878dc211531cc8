package dev.agentd.server.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Programs some ITs drive (node, npm, chromium): found on the PATH, run with a bound. */
final class ExternalTools {
    private ExternalTools() {}

    static Optional<Path> find(String... names) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : names) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    record Result(int exitCode, String stdout, String stderr) {}

    /** Runs {@code command} in {@code cwd}, killing it after {@code timeoutSeconds}. */
    static Result run(List<String> command, Path cwd, java.util.Map<String, String> env, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("agentd-it-", ".out");
        Path err = Files.createTempFile("agentd-it-", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                throw new AssertionError(command.get(0) + " did not finish within " + timeoutSeconds + " s; stderr: "
                        + tail(Files.readString(err, StandardCharsets.UTF_8)));
            }
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static String tail(String text) {
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }
}
