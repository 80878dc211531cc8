package dev.agentd.server.mcp;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How MCP tools are named for the model: {@code mcp__<server>__<tool>}, every character other than
 * an ASCII letter, digit or underscore replaced by {@code _} (control characters, dots, spaces,
 * slashes from a hostile server included), so a server's tool can never take a built-in tool's
 * name nor another server's. Providers bound tool names at 64 characters; a longer name is cut
 * and ends with a short hash of the original, as do names that collide after the replacement.
 */
public final class McpNames {
    public static final String PREFIX = "mcp__";
    private static final int MAX_LENGTH = 64;
    private static final int HASH_LENGTH = 8;
    /** Server names as configured: letters, digits, '_' and '-' (pi 1.x's rule), at most 64. */
    private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private McpNames() {}

    /** Whether {@code name} is acceptable as a server name. */
    public static boolean validServer(String name) {
        return name != null && SERVER_NAME.matcher(name).matches();
    }

    /** Whether a tool name belongs to an MCP server. */
    public static boolean isMcp(String toolName) {
        return toolName != null && toolName.startsWith(PREFIX);
    }

    /**
     * The model-facing name of each of {@code toolNames} (the server's own names, in its order),
     * keyed by the server's name. Names that collide after sanitizing get a hash suffix each.
     */
    public static Map<String, String> namespaced(String server, List<String> toolNames) {
        String base = PREFIX + sanitize(server) + "__";
        Map<String, Integer> counts = new HashMap<>();
        for (String tool : toolNames) {
            counts.merge(sanitize(tool), 1, Integer::sum);
        }
        Map<String, String> names = new LinkedHashMap<>();
        for (String tool : toolNames) {
            String clean = sanitize(tool);
            String full = base + clean;
            if (counts.get(clean) > 1 || full.length() > MAX_LENGTH) {
                String suffix = "_" + hash(tool);
                full = full.substring(0, Math.min(full.length(), MAX_LENGTH - suffix.length())) + suffix;
            }
            names.putIfAbsent(tool, full);
        }
        return names;
    }

    /** {@code text} with every character outside [A-Za-z0-9_] replaced by '_'. */
    static String sanitize(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), 256));
        for (int i = 0; i < text.length() && i < 256; i++) {
            char c = text.charAt(i);
            boolean keep = c < 128 && (Character.isLetterOrDigit(c) || c == '_');
            out.append(keep ? c : '_');
        }
        return out.isEmpty() ? "_" : out.toString();
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_LENGTH - 1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
