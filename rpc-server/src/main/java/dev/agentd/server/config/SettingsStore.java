package dev.agentd.server.config;

import dev.agentd.server.runtime.JsonProblems;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.runtime.OwnFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global ({@code <agentDir>/settings.json}) and project ({@code <cwd>/.agentd/settings.json})
 * settings files (SPEC §2).
 *
 * <p>Effective settings = global deep-merged with project (objects merged key by key, arrays and
 * scalars replaced, project wins), then this process's runtime toggles on top, so that a toggle
 * such as {@code set_auto_retry} takes effect even when a project file sets the same key. The maps
 * in {@link #REPLACED} are not merged: a layer that has one replaces it wholesale (FALLBACK §1: the
 * project's {@code retry.fallbackChains} replaces the global map). A project file's keys that
 * widen what runs without asking apply only once the project is trusted ({@link ProjectTrust}).
 *
 * <p>Toggles are persisted to the global file through {@link LockedJsonFile} (re-read under a
 * lock, changed key by key so unknown keys survive, renamed over it). A malformed file is reported
 * once and ignored, and never overwritten. Paths are lists of segments; the dotted-string methods
 * are a shorthand for fixed keys whose segments hold no dot.
 */
public final class SettingsStore {
    private static final Logger LOG = LoggerFactory.getLogger(SettingsStore.class);
    /** Paths whose value is replaced as a whole by a higher layer instead of merged key by key. */
    static final Set<List<String>> REPLACED = Set.of(List.of("retry", "fallbackChains"));

    private final Path globalPath;
    private final LockedJsonFile globalFile;
    private final Path projectFile;
    private volatile List<String> untrusted = List.of();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    // Nodes from the factory, not the mapper: absent files need no databind, which start-up builds in parallel.
    private final ObjectNode runtime = JsonNodeFactory.instance.objectNode();
    private ObjectNode global;
    private ObjectNode project;
    private volatile Settings current;

    public SettingsStore(Path globalFile, Path projectFile) {
        this.globalPath = globalFile;
        this.globalFile = globalFile == null ? null : new LockedJsonFile(globalFile);
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
        global = read(globalPath);
        project = read(projectFile);
        recompute();
    }

    /** {@link #set(List, JsonNode)} for a dotted fixed key such as {@code retry.enabled}. */
    public void set(String path, JsonNode value) throws IOException {
        set(JsonPaths.dotted(path), value);
    }

    /**
     * Sets a key for this process (winning over the project file) and persists it to the global file.
     * Below a {@link #REPLACED} path this toggle's map would hide the other layers' entries; edit
     * such maps with {@link #globalValue} and {@link #setGlobal} instead.
     *
     * @throws IOException when the global file cannot be written (the toggle still applies in memory)
     */
    public synchronized void set(List<String> path, JsonNode value) throws IOException {
        JsonPaths.put(runtime, path, value);
        recompute();
        if (globalFile != null) {
            globalFile.update(onDisk -> JsonPaths.put(onDisk, path, value));
        }
    }

    /**
     * Sets a key for this process only (winning over both files), leaving every file alone: a
     * toggle sent with {@code persist:false}.
     */
    public synchronized void setForProcess(List<String> path, JsonNode value) {
        JsonPaths.put(runtime, path, value);
        recompute();
    }

    /** {@link #setForProcess(List, JsonNode)} for a dotted fixed key such as {@code retry.enabled}. */
    public void setForProcess(String path, JsonNode value) {
        setForProcess(JsonPaths.dotted(path), value);
    }

    /**
     * The global file's own value at {@code path}, read from disk now (no project entries, no
     * runtime toggles): what a command edits before {@link #setGlobal} writes it back.
     *
     * @throws IOException when the global file is malformed or unreadable
     */
    public Optional<JsonNode> globalValue(List<String> path) throws IOException {
        return globalFile == null ? JsonPaths.get(globalSnapshot(), path)
                : JsonPaths.get(globalFile.read(), path);
    }

    /**
     * Writes {@code value} (null removes the key) into the global file only; the project file
     * still overrides it, and nothing from the project or the runtime layer is copied into the
     * file. The effective settings then use the file as written.
     *
     * @throws IOException when the global file is malformed (left unchanged) or cannot be written
     */
    public synchronized void setGlobal(List<String> path, JsonNode value) throws IOException {
        if (globalFile == null) {
            change(global, path, value);
        } else {
            global = globalFile.update(onDisk -> change(onDisk, path, value)).deepCopy();
        }
        recompute();
    }

    private synchronized ObjectNode globalSnapshot() {
        return global.deepCopy();
    }

    private static void change(ObjectNode root, List<String> path, JsonNode value) {
        if (value == null) {
            JsonPaths.remove(root, path);
        } else {
            JsonPaths.put(root, path, value);
        }
    }

    private ObjectNode read(Path file) {
        if (file == null || !Files.exists(file)) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            OwnFiles.requireOpenable(file, "a settings file"); // a FIFO would block startup forever
            JsonNode parsed = Json.mapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
            if (parsed instanceof ObjectNode object) {
                SettingsKeys.check(file.toString(), object, this::warnOnce);
                return object;
            }
            if (parsed == null || parsed.isMissingNode()) {
                return JsonNodeFactory.instance.objectNode();
            }
            warnOnce("file:" + file, "settings file " + file + " is not a JSON object; ignoring it");
        } catch (IOException e) {
            warnOnce("file:" + file, "settings file is malformed: " + JsonProblems.describe(file.toString(), e)
                    + "; ignoring it");
        }
        return JsonNodeFactory.instance.objectNode();
    }

    private void recompute() {
        ObjectNode merged = global.deepCopy();
        deepMerge(merged, applicableProject());
        deepMerge(merged, runtime);
        current = new Settings(merged, this::warnOnce);
    }

    /**
     * The project layer without what it may not set ({@link ProjectTrust}): its {@code trust}, and
     * unless the project is trusted (or the "project" file is the global one) its widening keys.
     * The file system is consulted only when the project sets such a key.
     */
    private ObjectNode applicableProject() {
        if (!ProjectTrust.needsTrust(project)) {
            untrusted = List.of();
            return project;
        }
        boolean trusted = globalPath != null && (ProjectTrust.real(projectFile).equals(ProjectTrust.real(globalPath))
                || ProjectTrust.trusted(global, ProjectTrust.rootOf(projectFile)));
        List<String> masked = new ArrayList<>();
        ObjectNode applicable = ProjectTrust.applicable(project, trusted, projectFile, globalPath, (key, message) -> {
            masked.add(message);
            warnOnce(key, message);
        });
        untrusted = List.copyOf(masked);
        return applicable;
    }

    /**
     * Merges {@code overlay} into {@code base}: objects key by key, except at the {@link #REPLACED}
     * paths; everything else replaced.
     */
    static void deepMerge(ObjectNode base, ObjectNode overlay) {
        deepMerge(base, overlay, List.of());
    }

    private static void deepMerge(ObjectNode base, ObjectNode overlay, List<String> at) {
        Iterator<Map.Entry<String, JsonNode>> fields = overlay.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            List<String> path = append(at, field.getKey());
            JsonNode existing = base.get(field.getKey());
            if (existing instanceof ObjectNode existingObject && field.getValue() instanceof ObjectNode overlayObject
                    && !REPLACED.contains(path)) {
                deepMerge(existingObject, overlayObject, path);
            } else {
                base.set(field.getKey(), field.getValue().deepCopy());
            }
        }
    }

    private static List<String> append(List<String> path, String segment) {
        List<String> longer = new ArrayList<>(path.size() + 1);
        longer.addAll(path);
        longer.add(segment);
        return longer;
    }

    private void warnOnce(String key, String message) {
        if (warned.add(key)) {
            warnings.add(message);
            LOG.warn(message);
        }
    }

    /**
     * The project keys the last read ignored for want of trust (and a project's own {@code trust}),
     * one message each: what an editor is told when a session opens.
     */
    public List<String> untrustedWarnings() {
        return untrusted;
    }

    /** Every warning reported so far (files, unknown keys, malformed values), in order. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
