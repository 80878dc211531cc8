package dev.agentd.server.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which paths agentd may open as plain files. Opening a FIFO blocks until a writer appears (no
 * abort can end it), a device such as {@code /dev/zero} never ends, and the daemon's own standard
 * streams ({@code /dev/stdin}, {@code /proc/self/fd/1}, …) belong to the protocol: reading them eats
 * the client's commands, writing them puts raw bytes among the protocol records. So every file
 * agentd or a tool opens by name is checked here first, with {@code stat} (which never blocks),
 * before it is opened.
 */
public final class OwnFiles {
    /** (device, inode) of the daemon's fds 0–2; whatever they are (pipe, tty, regular file). */
    private static final Set<Object> STANDARD_STREAMS = standardStreams();
    private static final Path OWN_PROC = Path.of("/proc", Long.toString(ProcessHandle.current().pid()));

    private OwnFiles() {}

    /**
     * Why {@code path} must not be opened as a file, or empty when it may (a regular file that is
     * none of the daemon's own streams, or a path that does not exist yet). Directories are left to
     * the caller, which has its own message for them. Symbolic links are followed.
     */
    public static Optional<String> refusal(Path path) {
        return refusal(path, STANDARD_STREAMS);
    }

    static Optional<String> refusal(Path path, Set<Object> ownStreams) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | SecurityException e) {
            return Optional.empty(); // opening it reports the real problem
        }
        if (attributes.isDirectory()) {
            return Optional.empty();
        }
        if (!attributes.isRegularFile()) {
            return Optional.of("it is not a regular file (a device, FIFO or socket)");
        }
        Object key = attributes.fileKey();
        if (key != null && ownStreams.contains(key)) {
            return Optional.of("it is one of agentd's own standard streams");
        }
        if (isOwnProcessFile(path)) {
            return Optional.of("it belongs to agentd's own process");
        }
        return Optional.empty();
    }

    /**
     * Why agentd must not open, append to or lock {@code path} as one of its own files in the agent
     * directory (a lock file, a log), or empty when it is a regular file or does not exist. Unlike
     * {@link #refusal} a symbolic link is never followed: the link itself is refused, so nothing is
     * ever written through it; and a directory is refused too.
     */
    public static Optional<String> refusalNoFollow(Path path) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | SecurityException e) {
            return Optional.empty(); // opening it reports the real problem
        }
        if (attributes.isSymbolicLink()) {
            return Optional.of("it is a symbolic link");
        }
        if (attributes.isDirectory()) {
            return Optional.of("it is a directory");
        }
        if (!attributes.isRegularFile()) {
            return Optional.of("it is not a regular file (a device, FIFO or socket)");
        }
        return Optional.empty();
    }

    /** Throws {@link IOException} naming {@code what} and the reason when {@code path} is refused. */
    public static void requireOpenable(Path path, String what) throws IOException {
        Optional<String> refusal = refusal(path);
        if (refusal.isPresent()) {
            throw new IOException("cannot use " + path + " as " + what + ": " + refusal.get());
        }
    }

    /** {@code /proc/self/environ} and friends hold the daemon's environment, keys included. */
    private static boolean isOwnProcessFile(Path path) {
        try {
            return path.toRealPath().startsWith(OWN_PROC);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static Set<Object> standardStreams() {
        Set<Object> keys = new HashSet<>();
        for (int fd = 0; fd <= 2; fd++) {
            try {
                Object key = Files.readAttributes(Path.of("/proc/self/fd/" + fd), BasicFileAttributes.class).fileKey();
                if (key != null) {
                    keys.add(key);
                }
            } catch (IOException | SecurityException | UnsupportedOperationException e) {
                // No /proc (not Linux) or the stream is closed: nothing to protect by identity.
            }
        }
        return Set.copyOf(keys);
    }
}
