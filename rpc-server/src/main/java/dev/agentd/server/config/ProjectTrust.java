package dev.agentd.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * The trust boundary of project settings (SPEC §2): a cloned repository's
 * {@code .agentd/settings.json} must not widen what runs without asking. The keys in
 * {@link #WIDENING} are honoured from the user's global settings always, and from a project file
 * only when the project's root is listed in the global {@code trust.projects} (an explicit step:
 * {@code agentd trust [dir]}, or an edit of the global file). A project's own {@code trust} is
 * always ignored: a project cannot trust itself.
 */
public final class ProjectTrust {
    /** A key that widens what runs unasked, and which of its values do (the rest only narrow). */
    record Widening(List<String> path, Predicate<JsonNode> widens) {
        String dotted() {
            return String.join(".", path);
        }
    }

    /**
     * Every key that lets something run without the user's say. A future one (tool allow-lists,
     * MCP servers, {@code !command} credentials or headers read from project files) is one more
     * entry here.
     */
    static final List<Widening> WIDENING = List.of(
            // --mode acp: anything but "ask" may skip session/request_permission before write, edit and bash
            new Widening(List.of("acp", "permissions"), value -> !"ask".equals(value.asText(null))),
            // MCP servers start processes and reach URLs with the user's environment: any entry widens.
            new Widening(List.of("mcpServers"), value -> true));
    /** The global list of trusted project roots: absolute real paths. */
    static final List<String> TRUSTED_PROJECTS = List.of("trust", "projects");
    /** Bound on the entries compared (each may cost a file-system lookup). */
    private static final int MAX_ENTRIES = 1_000;

    private ProjectTrust() {}

    /** The directory a project settings file belongs to: the parent of its {@code .agentd}. */
    static Path rootOf(Path projectFile) {
        Path dir = projectFile.toAbsolutePath().normalize().getParent();
        return dir == null || dir.getParent() == null ? dir : dir.getParent();
    }

    /** Whether {@code project} sets a widening key to a widening value (or sets {@code trust}). */
    static boolean needsTrust(ObjectNode project) {
        return project.has(TRUSTED_PROJECTS.get(0)) || WIDENING.stream()
                .anyMatch(key -> JsonPaths.get(project, key.path()).filter(key.widens()).isPresent());
    }

    /** Whether {@code root} is listed (as itself or its real path) in the global {@code trust.projects}. */
    static boolean trusted(ObjectNode global, Path root) {
        JsonNode list = JsonPaths.get(global, TRUSTED_PROJECTS).orElse(null);
        if (list == null || !list.isArray()) {
            return false;
        }
        Path real = real(root);
        int seen = 0;
        for (JsonNode entry : list) {
            if (++seen > MAX_ENTRIES) {
                break;
            }
            if (entry.isTextual() && matches(entry.textValue(), real)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String entry, Path real) {
        try {
            Path listed = Path.of(entry);
            return listed.isAbsolute() && (listed.normalize().equals(real) || real(listed).equals(real));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /**
     * The project layer as it may apply: {@code trust} removed always, and, for an untrusted
     * project, every widening key that widens; each removal reported once through {@code warn} as
     * {@code (key, message)}.
     */
    static ObjectNode applicable(ObjectNode project, boolean trusted, Path file, Path globalFile,
            BiConsumer<String, String> warn) {
        ObjectNode kept = project.deepCopy();
        if (kept.remove(TRUSTED_PROJECTS.get(0)) != null) {
            warn.accept("trust:" + file, "settings file " + file + ": 'trust' is ignored: a project cannot trust"
                    + " itself; trusted projects are listed in " + where(globalFile) + " only");
        }
        if (trusted) {
            return kept;
        }
        Path root = rootOf(file);
        for (Widening key : WIDENING) {
            if (JsonPaths.get(kept, key.path()).filter(key.widens()).isPresent()) {
                JsonPaths.remove(kept, key.path());
                warn.accept("untrusted:" + file + ":" + key.dotted(), "settings file " + file + ": '" + key.dotted()
                        + "' is ignored: a project's settings cannot widen what runs without asking until you trust"
                        + " the project (run `agentd trust " + root + "`, or add it to 'trust.projects' in "
                        + where(globalFile) + ")");
            }
        }
        return kept;
    }

    private static String where(Path globalFile) {
        return globalFile == null ? "the global settings.json" : globalFile.toString();
    }

    /**
     * Records {@code dir}'s real path in {@code trust.projects} of the global settings file (under
     * its lock, other keys kept); returns the path recorded. Already listed: left as it is.
     *
     * @throws IOException when {@code dir} is not a directory, or the file is malformed (left
     *     unchanged), or {@code trust.projects} is there but not a list
     */
    public static Path trust(Path globalSettings, Path dir) throws IOException {
        Path real = dir.toAbsolutePath().toRealPath();
        if (!Files.isDirectory(real)) {
            throw new IOException(dir + " is not a directory");
        }
        LockedJsonFile file = new LockedJsonFile(globalSettings);
        try {
            file.update(onDisk -> {
                JsonNode list = JsonPaths.get(onDisk, TRUSTED_PROJECTS).orElse(null);
                if (list != null && !list.isArray()) { // thrown before the write: the file stays as it is
                    throw new UncheckedIOException(new IOException("'trust.projects' in " + file.path()
                            + " is not a list; fix it by hand"));
                }
                ArrayNode projects = list == null ? onDisk.arrayNode() : (ArrayNode) list;
                if (!trusted(onDisk, real)) {
                    projects.add(real.toString());
                }
                JsonPaths.put(onDisk, TRUSTED_PROJECTS, projects);
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return real;
    }

    /** {@code path}'s real path when it exists, else its normalized absolute form. */
    static Path real(Path path) {
        try {
            return path.toAbsolutePath().toRealPath();
        } catch (IOException | SecurityException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    /** The dotted names of the widening keys, e.g. {@code acp.permissions}. */
    public static List<String> wideningKeys() {
        return WIDENING.stream().map(Widening::dotted).toList();
    }
}
