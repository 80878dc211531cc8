package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;

/**
 * How one built-in tool call looks in ACP: its kind, title, the files it touches and, for writes
 * and edits, the diff. Pure: the arguments are the model's, the paths resolved against the cwd.
 */
final class ToolCalls {
    private static final int MAX_TITLE_CHARS = 120;

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

    /** A short human title, e.g. {@code Edit src/Main.java} or {@code Run `mvn test`}. */
    static String title(String toolName, JsonNode args) {
        String path = AcpJson.textOf(args, "path");
        String title = switch (toolName == null ? "" : toolName) {
            case "read" -> "Read " + orDot(path);
            case "write" -> "Write " + orDot(path);
            case "edit" -> "Edit " + orDot(path);
            case "ls" -> "List " + orDot(path);
            case "bash" -> "Run `" + String.valueOf(AcpJson.textOf(args, "command")) + "`";
            case "grep", "find" -> (toolName.equals("grep") ? "Search " : "Find ")
                    + String.valueOf(AcpJson.textOf(args, "pattern")) + (path == null ? "" : " in " + path);
            default -> String.valueOf(toolName);
        };
        // One line: a multi-line command would break a client's list of calls.
        String line = title.replace('\n', ' ').replace('\r', ' ');
        return line.length() <= MAX_TITLE_CHARS ? line : line.substring(0, MAX_TITLE_CHARS - 1) + "…";
    }

    /** {@code [{path}]} for a call naming a file, resolved against {@code cwd}; empty otherwise. */
    static ArrayNode locations(JsonNode args, Path cwd) {
        ArrayNode locations = AcpJson.array();
        String path = AcpJson.textOf(args, "path");
        if (path != null && !path.isBlank()) {
            locations.add(AcpJson.object().put("path", absolute(path, cwd)));
        }
        return locations;
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

    static String absolute(String path, Path cwd) {
        String home = System.getProperty("user.home");
        String expanded = path.equals("~") ? home : path.startsWith("~/") ? home + path.substring(1) : path;
        return cwd.resolve(expanded).normalize().toString();
    }

    private static String orDot(String path) {
        return path == null || path.isBlank() ? "." : path;
    }
}
