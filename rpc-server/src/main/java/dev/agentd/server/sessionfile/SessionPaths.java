package dev.agentd.server.sessionfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where session files live (SPEC §7): {@code <sessions>/--<cwd with / \ : replaced by ->--/
 * <timestamp>_<uuid>.jsonl}, the timestamp being ISO-8601 with {@code :} and {@code .} replaced by
 * {@code -} so names sort by creation time. With {@code --session-dir} the files of every working
 * directory go straight into that directory.
 */
public record SessionPaths(Path sessionsRoot, boolean perWorkingDirectory) {

    public SessionPaths(Path sessionsRoot) {
        this(sessionsRoot, true);
    }

    /** {@code --session-dir}: one flat directory. */
    public static SessionPaths flat(Path directory) {
        return new SessionPaths(directory, false);
    }

    /** The directory holding the sessions of one working directory. */
    public Path directoryFor(Path cwd) {
        if (!perWorkingDirectory) {
            return sessionsRoot;
        }
        String text = cwd.toAbsolutePath().normalize().toString();
        if (text.startsWith("/")) {
            text = text.substring(1);
        }
        return sessionsRoot.resolve("--" + text.replaceAll("[/\\\\:]", "-") + "--");
    }

    /**
     * The directories holding sessions of any working directory: the flat directory, or each
     * {@code --<cwd>--} directory under the root (none when the root does not exist yet).
     */
    public List<Path> allDirectories() {
        if (!perWorkingDirectory) {
            return List.of(sessionsRoot);
        }
        try (Stream<Path> children = Files.list(sessionsRoot)) {
            return children.filter(dir -> {
                String name = dir.getFileName().toString();
                return name.length() > 4 && name.startsWith("--") && name.endsWith("--") && Files.isDirectory(dir);
            }).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** A fresh file name in the directory of {@code cwd}. */
    public Path newFile(Path cwd, long epochMillis) {
        String stamp = Instant.ofEpochMilli(epochMillis).toString().replace(':', '-').replace('.', '-');
        return directoryFor(cwd).resolve(stamp + "_" + RandomIds.uuid() + ".jsonl");
    }

    /** The most recently modified session of {@code cwd}, if any. */
    public Optional<Path> latest(Path cwd) throws IOException {
        Path dir = directoryFor(cwd);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jsonl"))
                    .max(Comparator.comparing(SessionPaths::modified).thenComparing(Path::getFileName));
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
