package dev.agentd.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global ({@code <agentDir>/settings.json}) and project ({@code <cwd>/.agentd/settings.json})
 * settings files (SPEC §2).
 *
 * <p>Effective settings = global deep-merged with project (objects merged key by key, arrays and
 * scalars replaced, project wins), then this process's runtime toggles on top, so that a toggle
 * such as {@code set_auto_retry} takes effect even when a project file sets the same key.
 * Toggles are persisted to the global file: re-read under a lock (in-process and a file lock),
 * changed key by key so unknown keys survive, written to a temporary file and renamed over it.
 * A malformed file is reported once and ignored, and never overwritten.
 */
public final class SettingsStore {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsStore.class);
    private static final Map<Path, ReentrantLock> PROCESS_LOCKS = new ConcurrentHashMap<>();

    private final Path globalFile;
    private final Path projectFile;
    private final ObjectMapper mapper = Json.mapper();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final ObjectNode runtime = mapper.createObjectNode();
    private ObjectNode global;
    private ObjectNode project;
    private volatile Settings current;

    public SettingsStore(Path globalFile, Path projectFile) {
        this.globalFile = globalFile;
        this.projectFile = projectFile;
        reload();
    }

    /** In-memory settings only (tests, {@code --no-session}-style embedding). */
    public static SettingsStore inMemory() {
        return new SettingsStore(null, null);
    }

    public Settings current() {
        return current;
    }

    /** Re-reads both files. */
    public synchronized void reload() {
        global = read(globalFile);
        project = read(projectFile);
        recompute();
    }

    /**
     * Sets a dotted key for this process and persists it to the global file.
     *
     * @throws IOException when the global file cannot be written (the toggle still applies in memory)
     */
    public synchronized void set(String path, JsonNode value) throws IOException {
        put(runtime, path, value);
        recompute();
        if (globalFile != null) {
            persist(path, value);
        }
    }

    private void persist(String path, JsonNode value) throws IOException {
        Files.createDirectories(globalFile.toAbsolutePath().getParent());
        Path lockFile = globalFile.toAbsolutePath().normalize().resolveSibling(globalFile.getFileName() + ".lock");
        // A file lock excludes other processes only; threads of this JVM queue on a lock per file.
        ReentrantLock processLock = PROCESS_LOCKS.computeIfAbsent(lockFile, file -> new ReentrantLock());
        processLock.lock();
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            ObjectNode onDisk;
            if (Files.exists(globalFile)) {
                OwnFiles.requireOpenable(globalFile, "the settings file");
                JsonNode parsed;
                try {
                    parsed = mapper.readTree(Files.readString(globalFile, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new IOException("settings file " + globalFile + " is malformed; not overwriting it", e);
                }
                if (parsed == null || parsed.isMissingNode()) {
                    onDisk = mapper.createObjectNode();
                } else if (parsed instanceof ObjectNode object) {
                    onDisk = object;
                } else {
                    throw new IOException("settings file " + globalFile + " is not a JSON object; not overwriting it");
                }
            } else {
                onDisk = mapper.createObjectNode();
            }
            put(onDisk, path, value);
            writeAtomically(globalFile, mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(onDisk));
        } finally {
            processLock.unlock();
        }
    }

    static void writeAtomically(Path target, byte[] content) throws IOException {
        Path temp = Files.createTempFile(target.toAbsolutePath().getParent(), target.getFileName() + ".", ".tmp");
        try {
            Files.write(temp, content);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private ObjectNode read(Path file) {
        if (file == null || !Files.exists(file)) {
            return mapper.createObjectNode();
        }
        try {
            OwnFiles.requireOpenable(file, "a settings file"); // a FIFO would block startup forever
            JsonNode parsed = mapper.readTree(Files.readString(file, StandardCharsets.UTF_8));
            if (parsed instanceof ObjectNode object) {
                return object;
            }
            if (parsed == null || parsed.isMissingNode()) {
                return mapper.createObjectNode();
            }
            warnOnce("file:" + file, "settings file " + file + " is not a JSON object; ignoring it");
        } catch (IOException e) {
            warnOnce("file:" + file, "settings file " + file + " is malformed (" + firstLine(e.getMessage())
                    + "); ignoring it");
        }
        return mapper.createObjectNode();
    }

    private void recompute() {
        ObjectNode merged = global.deepCopy();
        deepMerge(merged, project);
        deepMerge(merged, runtime);
        current = new Settings(merged, this::warnOnce);
    }

    /** Merges {@code overlay} into {@code base}: objects key by key, everything else replaced. */
    static void deepMerge(ObjectNode base, ObjectNode overlay) {
        Iterator<Map.Entry<String, JsonNode>> fields = overlay.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode existing = base.get(field.getKey());
            if (existing instanceof ObjectNode existingObject && field.getValue() instanceof ObjectNode overlayObject) {
                deepMerge(existingObject, overlayObject);
            } else {
                base.set(field.getKey(), field.getValue().deepCopy());
            }
        }
    }

    private static void put(ObjectNode root, String path, JsonNode value) {
        String[] parts = path.split("\\.");
        ObjectNode node = root;
        for (int i = 0; i < parts.length - 1; i++) {
            JsonNode child = node.get(parts[i]);
            if (!(child instanceof ObjectNode)) {
                child = node.putObject(parts[i]);
            }
            node = (ObjectNode) child;
        }
        node.set(parts[parts.length - 1], value);
    }

    private void warnOnce(String key, String message) {
        if (warned.add(key)) {
            LOG.warn(message);
        }
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
