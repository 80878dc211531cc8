package dev.agentd.server.tools;

import dev.agentd.server.runtime.CancellationToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Depth-first walk for {@code grep} and {@code find}: children in name order (so results and
 * limits are deterministic), {@code .git} skipped, {@code .gitignore} files honoured — those of
 * the walked directories and of the ancestors up to the repository root (see {@link IgnoreRules}).
 * Symbolic links to directories are not followed; unreadable directories are skipped.
 */
final class FileWalker {

    /** One visited file or directory; {@code relative} uses {@code /} separators. */
    record Entry(Path path, String relative, boolean directory) {}

    /** Receives entries; returning false stops the walk. */
    interface Visitor {
        boolean visit(Entry entry) throws IOException;
    }

    private final CancellationToken cancel;

    FileWalker(CancellationToken cancel) {
        this.cancel = cancel;
    }

    /** Walks below {@code root} (a directory); returns false if stopped by the visitor or cancelled. */
    boolean walk(Path root, Visitor visitor) throws IOException {
        Path start = root.toAbsolutePath().normalize();
        return walkDir(start, "", ancestorRules(start), visitor);
    }

    private boolean walkDir(Path dir, String relDir, List<IgnoreRules> inherited, Visitor visitor)
            throws IOException {
        List<IgnoreRules> rules = inherited;
        IgnoreRules own = IgnoreRules.load(dir);
        if (!own.isEmpty()) {
            rules = new ArrayList<>(inherited);
            rules.add(own);
        }
        List<Path> children;
        try (Stream<Path> listing = Files.list(dir)) {
            children = listing.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
        } catch (IOException e) {
            return true;
        }
        for (Path child : children) {
            if (cancel.isCancelled()) {
                return false;
            }
            String name = child.getFileName().toString();
            boolean directory = Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS);
            if ((directory && name.equals(".git")) || IgnoreRules.ignored(rules, child, directory)) {
                continue;
            }
            String relative = relDir.isEmpty() ? name : relDir + "/" + name;
            if (!visitor.visit(new Entry(child, relative, directory))) {
                return false;
            }
            if (directory && !walkDir(child, relative, rules, visitor)) {
                return false;
            }
        }
        return true;
    }

    /** Rules of the ancestors of {@code root}, outermost first, up to the enclosing git repository. */
    private static List<IgnoreRules> ancestorRules(Path root) {
        List<IgnoreRules> found = new ArrayList<>();
        Path absolute = root.toAbsolutePath().normalize();
        if (isRepoRoot(absolute)) {
            return found;
        }
        for (Path dir = absolute.getParent(); dir != null; dir = dir.getParent()) {
            IgnoreRules rules = IgnoreRules.load(dir);
            if (!rules.isEmpty()) {
                found.add(0, rules);
            }
            if (isRepoRoot(dir)) {
                return found;
            }
        }
        // Outside any repository, ancestors' .gitignore files mean nothing.
        return List.of();
    }

    private static boolean isRepoRoot(Path dir) {
        return Files.exists(dir.resolve(".git"));
    }
}
