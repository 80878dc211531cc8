package dev.agentd.server.sessionfile;

import dev.agentd.server.runtime.OwnFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The mark that one process writes a session file: an advisory {@code FileChannel.tryLock} on the
 * sidecar {@code <file>.lock} (never on the session file itself: closing any descriptor of a file
 * drops a process's POSIX locks on it, and the file is read and appended through other channels).
 * The operating system drops the lock with the process, so a SIGKILL never leaves a session locked;
 * the sidecar, empty but for the holder's pid, stays behind (deleting it would race with a process
 * that has just opened it). A process holds each file's lock once: a second acquisition in the
 * same process shares it (a {@code switch_session} to the current file), counted, and the lock goes
 * with the last release. The sidecar is opened without following links and refused when it is
 * not a regular file (a FIFO would block the open).
 */
public final class SessionLock {
    static final String SUFFIX = ".lock";
    private static final int PID_BYTES = 32;
    /** The locks this process holds, by session file; guarded by itself. */
    private static final Map<Path, SessionLock> HELD = new HashMap<>();

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;
    private int holders = 1;

    private SessionLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code sessionFile}; throws {@link SessionLockedException} when another
     * process holds it, and {@link IOException} when the sidecar cannot be used.
     */
    public static SessionLock acquire(Path sessionFile) throws IOException {
        Path key = key(sessionFile);
        synchronized (HELD) {
            SessionLock held = HELD.get(key);
            if (held != null) {
                held.holders++;
                return held;
            }
            Path sidecar = sidecar(key);
            requirePlainFile(sidecar);
            FileChannel channel = FileChannel.open(sidecar, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException | IOException e) {
                channel.close();
                throw e instanceof IOException io ? io : new IOException("cannot lock " + sidecar, e);
            }
            if (lock == null) {
                String holder = readPid(channel);
                channel.close();
                throw new SessionLockedException(sessionFile, holder);
            }
            writePid(channel);
            SessionLock taken = new SessionLock(key, channel, lock);
            HELD.put(key, taken);
            return taken;
        }
    }

    /** Gives this holder's share back; the lock goes with the last one. Idempotent per share. */
    public void release() {
        synchronized (HELD) {
            if (holders == 0 || --holders > 0) {
                return;
            }
            HELD.remove(key);
            try {
                lock.release();
            } catch (IOException e) {
                // closing the channel below drops it anyway
            }
            try {
                channel.close();
            } catch (IOException e) {
                // nothing left to do: the process's exit drops the lock
            }
        }
    }

    static Path sidecar(Path sessionFile) {
        return sessionFile.resolveSibling(sessionFile.getFileName() + SUFFIX);
    }

    /** One key per file however it is named: the directory's real path (it exists) and the name. */
    private static Path key(Path sessionFile) {
        Path absolute = sessionFile.toAbsolutePath().normalize();
        try {
            return absolute.getParent().toRealPath().resolve(absolute.getFileName());
        } catch (IOException e) {
            return absolute;
        }
    }

    private static void requirePlainFile(Path sidecar) throws IOException {
        Optional<String> refusal = OwnFiles.refusalNoFollow(sidecar);
        if (refusal.isPresent()) {
            throw new IOException("cannot use " + sidecar + " as a session lock: " + refusal.get());
        }
    }

    private static void writePid(FileChannel channel) {
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        } catch (IOException e) {
            // the pid only improves the message another process shows
        }
    }

    /** The holder's pid as it wrote it (digits only), or null. */
    private static String readPid(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(PID_BYTES);
            channel.read(buffer, 0);
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
            return text.matches("[0-9]{1,10}") ? text : null;
        } catch (IOException e) {
            return null;
        }
    }
}
