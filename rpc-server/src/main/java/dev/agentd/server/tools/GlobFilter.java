package dev.agentd.server.tools;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;

/**
 * A glob as the model writes it for {@code find} and {@code grep}: without a slash
 * ({@code *.java}) it matches file names at any depth; with one ({@code src/**}{@code /*.java}) it
 * matches the path relative to the search root, and a leading {@code **}{@code /} also matches at
 * the root itself (Java's {@code **}{@code /} needs at least one directory).
 */
final class GlobFilter {
    private final PathMatcher matcher;
    private final PathMatcher rootMatcher;
    private final boolean byName;

    private GlobFilter(PathMatcher matcher, PathMatcher rootMatcher, boolean byName) {
        this.matcher = matcher;
        this.rootMatcher = rootMatcher;
        this.byName = byName;
    }

    /** @throws ToolException for a malformed glob */
    static GlobFilter of(String glob) {
        String pattern = glob.startsWith("./") ? glob.substring(2) : glob;
        try {
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
            PathMatcher root = pattern.startsWith("**/")
                    ? FileSystems.getDefault().getPathMatcher("glob:" + pattern.substring(3)) : null;
            return new GlobFilter(matcher, root, !pattern.contains("/"));
        } catch (IllegalArgumentException e) {
            throw new ToolException("Invalid glob pattern '" + glob + "': " + e.getMessage());
        }
    }

    /** @param relative the path relative to the search root, with {@code /} separators */
    boolean matches(String relative) {
        Path path = Path.of(relative);
        if (byName) {
            Path name = path.getFileName();
            return name != null && matcher.matches(name);
        }
        return matcher.matches(path) || (rootMatcher != null && rootMatcher.matches(path));
    }
}
