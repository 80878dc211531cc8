package dev.agentd.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.runtime.OwnFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A JSON object file shared by several processes (and threads): each change re-reads the file
 * under a lock, edits it and renames a complete new file over it, so concurrent writers lose
 * nothing and readers never see half a file. A file that is not a JSON object is never
 * overwritten.
 *
 * <p>The lock is {@code <file>.lock} held with a file lock, which excludes other processes only;
 * threads of this JVM queue first on one in-process lock per lock file.
 */
public final class LockedJsonFile {
    private static final Map<Path, ReentrantLock> PROCESS_LOCKS = new ConcurrentHashMap<>();

    private final Path file;
    private final Path lockFile;

    public LockedJsonFile(Path file) {
        this.file = file.toAbsolutePath().normalize();
        this.lockFile = this.file.resolveSibling(this.file.getFileName() + ".lock");
    }

    public Path path() {
        return file;
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
            parsed = Json.mapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
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
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
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

    private void writeAtomically(byte[] content) throws IOException {
        Path temp = Files.createTempFile(file.getParent(), file.getFileName() + ".", ".tmp");
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
