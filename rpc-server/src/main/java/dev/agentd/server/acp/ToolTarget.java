package dev.agentd.server.acp;

import dev.agentd.server.tools.PathResolver;
import dev.agentd.server.tools.ToolException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The file a tool call's path argument really names (adversarial N6): the path as the tool opens
 * it ({@link PathResolver}: relative to the cwd, {@code ~} expanded, {@code ..} removed lexically),
 * then every symbolic link on the way resolved as the OS would, including a final link and links
 * under directories that do not exist yet. What the user is asked about is that file, flagged
 * when it lies outside the session's cwd.
 *
 * @param lexical the path the tool opens
 * @param real the file that path leads to
 * @param location where to show it: inside the project under the cwd as the editor knows it, else {@code real}
 * @param shown for titles: relative to the project inside it, else absolute
 * @param outside whether {@code real} lies outside the cwd's real path
 */
record ToolTarget(Path lexical, Path real, Path location, String shown, boolean outside) {
    /** Linux's own bound (MAXSYMLINKS): a longer chain fails to open anyway. */
    static final int MAX_LINKS = 40;
    /** Bound on path components walked, links included. */
    private static final int MAX_STEPS = 4_096;

    /** Whether a symbolic link sends the call somewhere other than the path suggests. */
    boolean redirected() {
        return !location.equals(lexical);
    }

    /** The target of {@code raw} for a session in {@code cwd}; empty for a path the tool would refuse. */
    static Optional<ToolTarget> of(String raw, Path cwd) {
        Path lexical;
        try {
            lexical = new PathResolver(cwd).resolve(raw);
        } catch (ToolException | IllegalArgumentException e) {
            return Optional.empty();
        }
        Path base = cwd.toAbsolutePath().normalize();
        Path realCwd = real(base);
        Path real = real(lexical);
        if (!real.startsWith(realCwd)) {
            return Optional.of(new ToolTarget(lexical, real, real, real.toString(), true));
        }
        Path relative = realCwd.relativize(real);
        String shown = relative.toString().isEmpty() ? "." : relative.toString();
        return Optional.of(new ToolTarget(lexical, real, base.resolve(relative).normalize(), shown, false));
    }

    /**
     * {@code absolute}'s real path, resolved component by component without requiring it to
     * exist: a link's target is spliced in (relative to the link's directory), {@code ..} after a
     * link goes to the real parent. Bounded by {@link #MAX_LINKS} links; a longer chain, or a link
     * that cannot be read, leaves the lexical path (the tool's open then fails or sees the same).
     */
    static Path real(Path absolute) {
        Path resolved = absolute.getRoot();
        if (resolved == null) {
            return absolute;
        }
        Deque<String> names = new ArrayDeque<>();
        absolute.forEach(name -> names.add(name.toString()));
        int links = 0;
        int steps = 0;
        while (!names.isEmpty()) {
            if (++steps > MAX_STEPS) {
                return absolute;
            }
            String name = names.removeFirst();
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                resolved = resolved.getParent() == null ? resolved : resolved.getParent();
                continue;
            }
            Path next = resolved.resolve(name);
            if (!Files.isSymbolicLink(next)) {
                resolved = next;
                continue;
            }
            if (++links > MAX_LINKS) {
                return absolute;
            }
            Path target;
            try {
                target = Files.readSymbolicLink(next);
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                return absolute;
            }
            List<String> spliced = new ArrayList<>();
            target.forEach(part -> spliced.add(part.toString()));
            for (int i = spliced.size() - 1; i >= 0; i--) {
                names.addFirst(spliced.get(i));
            }
            if (target.isAbsolute()) {
                resolved = target.getRoot();
            }
        }
        return resolved;
    }
}
