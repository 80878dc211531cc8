package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.runtime.OwnFiles;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Turns a path as the model wrote it into an absolute path: relative to the session's cwd, with
 * {@code ~} and {@code ~/x} meaning the home directory. Paths outside the cwd are allowed on
 * purpose — the model works on the user's behalf, not in a sandbox.
 */
public final class PathResolver {
    private final Path cwd;
    private final Path home;

    public PathResolver(Path cwd) {
        this(cwd, Path.of(System.getProperty("user.home")));
    }

    /** With an explicit home directory (tests cannot change the JVM's). */
    public PathResolver(Path cwd, Path home) {
        this.cwd = cwd.toAbsolutePath().normalize();
        this.home = home.toAbsolutePath().normalize();
    }

    public Path cwd() {
        return cwd;
    }

    /**
     * Resolves {@code raw}. A leading {@code @} is dropped, since models often copy the
     * {@code @file} mention syntax into paths.
     *
     * @throws ToolException when the text is empty or not a valid path
     */
    public Path resolve(String raw) {
        String text = raw == null ? "" : raw.strip();
        if (text.startsWith("@")) {
            text = text.substring(1);
        }
        if (text.isEmpty()) {
            throw new ToolException("Path must not be empty");
        }
        try {
            if (text.equals("~")) {
                return home;
            }
            if (text.startsWith("~/")) {
                return home.resolve(text.substring(2)).normalize();
            }
            return cwd.resolve(text).normalize();
        } catch (InvalidPathException e) {
            throw new ToolException("Invalid path: " + raw);
        }
    }

    /** The resolved {@code path} argument of a writing tool's call; empty when absent or invalid. */
    Optional<String> writeTarget(JsonNode arguments) {
        JsonNode raw = arguments == null ? null : arguments.get("path");
        if (raw == null || !raw.isTextual()) {
            return Optional.empty();
        }
        try {
            return Optional.of(resolve(raw.asText()).toString());
        } catch (ToolException e) {
            return Optional.empty();
        }
    }

    /** {@link #file(String, String)} with no hint in the directory error. */
    public Path file(String raw) {
        return file(raw, "");
    }

    /**
     * The file a tool reads or writes at {@code raw}: resolved, and refused when it is a directory
     * ("Path is a directory: raw" + {@code directoryHint}) or cannot be opened safely
     * ({@link #requireOpenable}).
     */
    public Path file(String raw, String directoryHint) {
        Path file = resolve(raw);
        if (Files.isDirectory(file)) {
            throw new ToolException("Path is a directory: " + raw + directoryHint);
        }
        requireOpenable(file, raw);
        return file;
    }

    /**
     * Refuses, before anything opens it, a path that is not a plain file: a FIFO (opening blocks
     * beyond abort), a device, or one of the daemon's own streams (SPEC: stdout is protocol only).
     */
    public static void requireOpenable(Path file, String raw) {
        OwnFiles.refusal(file).ifPresent(reason -> {
            throw new ToolException("Cannot use " + raw + ": " + reason);
        });
    }
}
