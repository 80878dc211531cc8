package dev.agentd.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.runtime.OwnFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JSON object file shared by several processes (and threads): each change re-reads the file
 * under a lock, edits it and renames a complete new file over it, so concurrent writers lose
 * nothing and readers never see half a file. A file that is not a JSON object is never
 * overwritten.
 *
 * <p>The lock is {@code <file>.lock} held with a file lock, which excludes other processes only;
 * threads of this JVM queue first on one in-process lock per lock file. A lock path that is not a
 * regular file (a FIFO, whose opening would block forever; a symbolic link, which would lock its
 * target) is replaced by a regular file, with one warning; it is never followed.
 *
 * <p>Every write first sweeps {@code <file>.*.tmp} siblings: temp files of a writer killed between
 * creating and renaming its temp. This runs under the lock, and every writer creates and removes
 * its temp only while holding it, so any temp visible then belongs to a writer that died (the OS
 * released its lock): a live writer's temp is never removed.
 *
 * <p>A file may be given a size bound: a larger file is reported as {@link TooLargeException}
 * (unreadable state, replaced by {@link #updateReplacingUnreadable}) instead of parsed.
 */
public final class LockedJsonFile {
    private static final Logger LOG = LoggerFactory.getLogger(LockedJsonFile.class);
    private static final Map<Path, ReentrantLock> PROCESS_LOCKS = new ConcurrentHashMap<>();
    private static final Set<Path> WARNED_LOCKS = ConcurrentHashMap.newKeySet();
    /** Directory entries looked at per sweep: a directory stuffed with files cannot stall a write. */
    static final int SWEEP_SCAN_LIMIT = 10_000;
    static final String TEMP_SUFFIX = ".tmp";

    private final Path file;
    private final Path lockFile;
    private final long maxBytes;

    /** A file no larger than {@code maxBytes} is parsed; a larger one is refused. */
    public static final class TooLargeException extends IOException {
        TooLargeException(Path file, long maxBytes) {
            super(file + " is larger than " + maxBytes + " bytes; not reading it");
        }
    }

    public LockedJsonFile(Path file) {
        this(file, Long.MAX_VALUE);
    }

    /** @param maxBytes the largest file that is read; a larger one is {@link TooLargeException} */
    public LockedJsonFile(Path file, long maxBytes) {
        this.file = file.toAbsolutePath().normalize();
        this.lockFile = this.file.resolveSibling(this.file.getFileName() + ".lock");
        this.maxBytes = Math.max(0, maxBytes);
    }

    public Path path() {
        return file;
    }

    /** Whether a thread of this process waits for this file's lock (tests). */
    boolean lockWaitedFor() {
        ReentrantLock lock = PROCESS_LOCKS.get(lockFile);
        return lock != null && lock.hasQueuedThreads();
    }

    /**
     * The file's content as it is now: an empty object when the file is missing or empty.
     *
     * @throws IOException when it cannot be read, is not JSON or is not an object
     */
    public ObjectNode read() throws IOException {
        if (!Files.exists(file)) {
            return JsonNodeFactory.instance.objectNode();
        }
        OwnFiles.requireOpenable(file, "a JSON state file"); // a FIFO or /dev/zero must fail fast
        JsonNode parsed;
        try {
            parsed = Json.mapper().readTree(text());
        } catch (TooLargeException e) {
            throw e;
        } catch (IOException e) {
            throw new IOException(file + " is malformed; not overwriting it", e);
        }
        if (parsed == null || parsed.isMissingNode()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (parsed instanceof ObjectNode object) {
            return object;
        }
        throw new IOException(file + " is not a JSON object; not overwriting it");
    }

    /** The content, read no further than the size bound (the file may grow while it is read). */
    private String text() throws IOException {
        if (maxBytes == Long.MAX_VALUE) {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) Math.min(maxBytes + 1, Integer.MAX_VALUE - 8));
        }
        if (bytes.length > maxBytes) {
            throw new TooLargeException(file, maxBytes);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Re-reads the file under the lock, lets {@code change} edit it in place and writes the result
     * atomically; returns what was written.
     *
     * @throws IOException when the file is malformed (left unchanged) or cannot be written
     */
    public ObjectNode update(Consumer<ObjectNode> change) throws IOException {
        return update(change, null);
    }

    /**
     * {@link #update(Consumer)} for state that may be rebuilt: a file that cannot be read as a JSON
     * object is reported to {@code unreadable} and replaced, under the lock, by what {@code change}
     * makes of an empty object.
     */
    public ObjectNode updateReplacingUnreadable(Consumer<ObjectNode> change, Consumer<IOException> unreadable)
            throws IOException {
        return update(change, unreadable);
    }

    private ObjectNode update(Consumer<ObjectNode> change, Consumer<IOException> unreadable) throws IOException {
        Files.createDirectories(file.getParent());
        ReentrantLock processLock = PROCESS_LOCKS.computeIfAbsent(lockFile, ignored -> new ReentrantLock());
        processLock.lock();
        try (FileChannel channel = openLock(); FileLock ignored = channel.lock()) {
            sweepTemps();
            ObjectNode content;
            try {
                content = read();
            } catch (IOException e) {
                if (unreadable == null) {
                    throw e;
                }
                unreadable.accept(e);
                content = JsonNodeFactory.instance.objectNode();
            }
            change.accept(content);
            writeAtomically(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(content));
            return content;
        } finally {
            processLock.unlock();
        }
    }

    /**
     * The lock file, opened without following a link. A special file or link there is replaced
     * first. Read-write, so that even a FIFO slipped in after the check opens at once (Linux) instead
     * of waiting for a reader.
     */
    private FileChannel openLock() throws IOException {
        Optional<String> refusal = OwnFiles.refusalNoFollow(lockFile);
        if (refusal.isPresent()) {
            if (WARNED_LOCKS.add(lockFile)) {
                LOG.warn("lock file {} cannot be used: {}; replacing it with a regular file", lockFile, refusal.get());
            }
            Files.deleteIfExists(lockFile); // the link or FIFO itself, never what a link points to
        }
        return FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    }

    /** Removes the temps of writers that died mid-write (called under the lock: see the class comment). */
    private void sweepTemps() {
        String prefix = file.getFileName() + ".";
        int scanned = 0;
        try (DirectoryStream<Path> siblings = Files.newDirectoryStream(file.getParent())) {
            for (Path sibling : siblings) {
                if (++scanned > SWEEP_SCAN_LIMIT) {
                    break;
                }
                String name = sibling.getFileName().toString();
                if (name.length() > prefix.length() + TEMP_SUFFIX.length() && name.startsWith(prefix)
                        && name.endsWith(TEMP_SUFFIX)
                        && Files.isRegularFile(sibling, LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(sibling);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Leftovers cost disk space only; the write itself must not fail for them.
            LOG.debug("could not sweep temp files next to {}: {}", file, e.toString());
        }
    }

    private void writeAtomically(byte[] content) throws IOException {
        Path temp = Files.createTempFile(file.getParent(), file.getFileName() + ".", TEMP_SUFFIX);
        try {
            Files.write(temp, content);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
