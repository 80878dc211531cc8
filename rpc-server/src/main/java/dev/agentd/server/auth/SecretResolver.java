package dev.agentd.server.auth;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves configured key and header values (SPEC §2): {@code !command} runs the command with
 * {@code sh -c} and takes its trimmed stdout (10 s limit, cached for the process), the name of an
 * environment variable yields its value, anything else is the literal. Neither a value nor a
 * command line is ever logged: commands may embed secrets.
 */
public final class SecretResolver {
    private static final Logger LOG = LoggerFactory.getLogger(SecretResolver.class);
    private static final long COMMAND_TIMEOUT_SECONDS = 10;

    private final Map<String, String> env;
    private final Map<String, Optional<String>> commandCache = new ConcurrentHashMap<>();

    public SecretResolver(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** The resolved value, empty if the spec is blank or its command failed. */
    public Optional<String> resolve(String spec, String purpose) {
        if (spec == null || spec.isBlank()) {
            return Optional.empty();
        }
        if (spec.startsWith("!")) {
            return commandCache.computeIfAbsent(spec, command -> run(command.substring(1), purpose));
        }
        String fromEnv = env.get(spec);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Optional.of(fromEnv);
        }
        return Optional.of(spec);
    }

    /** The value of an environment variable, if set and non-blank. */
    public Optional<String> env(String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    private static Optional<String> run(String command, String purpose) {
        try {
            Process process = new ProcessBuilder("sh", "-c", command)
                    .redirectErrorStream(false)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            byte[] out;
            try (InputStream stdout = process.getInputStream()) {
                out = stdout.readAllBytes();
            }
            if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                LOG.warn("the command configured for {} did not finish within {} s", purpose, COMMAND_TIMEOUT_SECONDS);
                return Optional.empty();
            }
            if (process.exitValue() != 0) {
                LOG.warn("the command configured for {} exited with code {}", purpose, process.exitValue());
                return Optional.empty();
            }
            String value = new String(out, StandardCharsets.UTF_8).trim();
            return value.isEmpty() ? Optional.empty() : Optional.of(value);
        } catch (IOException e) {
            LOG.warn("the command configured for {} could not be started", purpose);
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
