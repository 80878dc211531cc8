package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How one built-in tool call looks in ACP: its kind, title, the files it touches and, for writes
 * and edits, the diff. The arguments are the model's; paths are shown as the files they really
 * name ({@link ToolTarget}: symbolic links resolved, flagged outside the project), which reads the
 * file system but changes nothing.
 */
final class ToolCalls {
    private static final int MAX_TITLE_CHARS = 120;
    static final String OUTSIDE = " (outside the project)";

    private ToolCalls() {}

    /** ACP's {@code ToolKind} for a built-in tool; {@code other} for anything else. */
    static String kind(String toolName) {
        return switch (toolName == null ? "" : toolName) {
            case "read", "ls" -> "read";
            case "write", "edit" -> "edit";
            case "bash" -> "execute";
            case "grep", "find" -> "search";
            default -> "other";
        };
    }

    /**
     * A short human title, e.g. {@code Edit src/Main.java} or {@code Run `mvn test`}. A path is
     * shown as the file it really names ({@link ToolTarget}), flagged when outside the project.
     */
    static String title(String toolName, JsonNode args, Path cwd) {
        String raw = AcpJson.textOf(args, "path");
        Optional<ToolTarget> target = raw == null || raw.isBlank() ? Optional.empty() : ToolTarget.of(raw, cwd);
        String path = target.map(ToolTarget::shown).orElse(raw);
        String suffix = target.filter(ToolTarget::outside).isPresent() ? OUTSIDE : "";
        String verb = switch (toolName == null ? "" : toolName) {
            case "read" -> "Read ";
            case "write" -> "Write ";
            case "edit" -> "Edit ";
            case "ls" -> "List ";
            default -> null;
        };
        if (verb != null) {
            return line(verb, orDot(path), suffix);
        }
        return switch (toolName == null ? "" : toolName) {
            case "bash" -> line("Run `" + AcpJson.textOf(args, "command") + "`", "", "");
            case "grep", "find" -> path == null
                    ? line((toolName.equals("grep") ? "Search " : "Find ") + AcpJson.textOf(args, "pattern"), "", "")
                    : line((toolName.equals("grep") ? "Search " : "Find ") + AcpJson.textOf(args, "pattern")
                            + " in ", path, suffix);
            default -> line(String.valueOf(toolName), "", "");
        };
    }

    /**
     * One line (a multi-line command would break a client's list of calls) of at most
     * {@link #MAX_TITLE_CHARS}: a long path keeps its end and the flag after it stays whole.
     */
    private static String line(String head, String path, String suffix) {
        head = oneLine(head);
        path = oneLine(path);
        int room = MAX_TITLE_CHARS - suffix.length();
        if (head.length() + path.length() <= room) {
            return head + path + suffix;
        }
        int headRoom = path.isEmpty() ? room : Math.min(head.length(), room / 2);
        String cutHead = head.length() <= headRoom ? head : head.substring(0, headRoom - 1) + "…";
        int pathRoom = room - cutHead.length();
        String cutPath = path.length() <= pathRoom ? path : "…" + path.substring(path.length() - pathRoom + 1);
        return cutHead + cutPath + suffix;
    }

    private static String oneLine(String text) {
        return text.replace('\n', ' ').replace('\r', ' ');
    }

    /** {@code [{path}]} for a call naming a file: the file it really names ({@link ToolTarget}); empty otherwise. */
    static ArrayNode locations(JsonNode args, Path cwd) {
        ArrayNode locations = AcpJson.array();
        String path = AcpJson.textOf(args, "path");
        if (path != null && !path.isBlank()) {
            locations.add(AcpJson.object().put("path", absolute(path, cwd)));
        }
        return locations;
    }

    /**
     * For a permission request: what the user should know about the target before allowing —
     * that it lies outside the project, or that a symbolic link leads elsewhere; empty when the
     * path is what it seems.
     */
    static Optional<String> targetNote(String toolName, JsonNode args, Path cwd) {
        String raw = AcpJson.textOf(args, "path");
        Optional<ToolTarget> target = raw == null || raw.isBlank() ? Optional.empty() : ToolTarget.of(raw, cwd);
        if (target.isEmpty() || (!target.get().outside() && !target.get().redirected())) {
            return Optional.empty();
        }
        ToolTarget real = target.get();
        String through = real.redirected() ? " (" + oneLine(raw) + " leads there through a symbolic link)" : "";
        String what = "this " + toolName + " changes " + real.real() + through;
        return Optional.of(real.outside()
                ? "Outside the project: " + what + "; the project is " + ToolTarget.real(cwd.toAbsolutePath()
                        .normalize()) + "."
                : "T" + what.substring(1) + ".");
    }

    /** Whether the call's path argument really names a file outside the project. */
    static boolean outside(JsonNode args, Path cwd) {
        String raw = AcpJson.textOf(args, "path");
        return raw != null && !raw.isBlank() && ToolTarget.of(raw, cwd).map(ToolTarget::outside).orElse(false);
    }

    /** The diff a finished write or edit made (ACP {@code ToolCallContent} of type diff), or null. */
    static ObjectNode diff(String toolName, JsonNode args, Path cwd) {
        String path = AcpJson.textOf(args, "path");
        if (path == null) {
            return null;
        }
        if ("write".equals(toolName) && AcpJson.textOf(args, "content") != null) {
            return AcpJson.object().put("type", "diff").put("path", absolute(path, cwd)).putNull("oldText")
                    .put("newText", AcpJson.textOf(args, "content"));
        }
        if ("edit".equals(toolName) && AcpJson.textOf(args, "newText") != null) {
            return AcpJson.object().put("type", "diff").put("path", absolute(path, cwd))
                    .put("oldText", AcpJson.textOf(args, "oldText")).put("newText", AcpJson.textOf(args, "newText"));
        }
        return null;
    }

    /** The file {@code path} really names, as the editor should show it ({@link ToolTarget#location()}). */
    static String absolute(String path, Path cwd) {
        return ToolTarget.of(path, cwd).map(target -> target.location().toString()).orElseGet(() -> {
            try {
                return cwd.resolve(path).normalize().toString();
            } catch (InvalidPathException e) {
                return path; // the tool refuses it too
            }
        });
    }

    private static String orDot(String path) {
        return path == null || path.isBlank() ? "." : path;
    }
}
