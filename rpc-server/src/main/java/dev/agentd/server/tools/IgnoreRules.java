package dev.agentd.server.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of one {@code .gitignore}, a practical subset of git's syntax:
 * <ul>
 *   <li>blank lines and {@code #} comments are skipped; {@code \#} and {@code \!} escape;</li>
 *   <li>{@code *}, {@code ?}, {@code [abc]} and {@code **} wildcards ({@code *} stays within one
 *       directory level);</li>
 *   <li>a pattern without a slash ({@code *.log}, {@code build}) matches a name at any depth; one
 *       with a slash ({@code /dist}, {@code docs/*.md}) is anchored to the file's directory, and a
 *       leading {@code **}{@code /} matches at any depth;</li>
 *   <li>a trailing {@code /} matches directories only;</li>
 *   <li>{@code !pattern} re-includes, the last matching rule winning — but, as in git, nothing
 *       inside an ignored directory can be re-included, because the directory is never entered.</li>
 * </ul>
 * Not supported: {@code a/**}{@code /b} matching {@code a/b} directly, trailing-space escapes,
 * {@code .git/info/exclude} and the global excludes file.
 */
final class IgnoreRules {
    private record Rule(PathMatcher matcher, boolean negate, boolean dirOnly, boolean anchored) {}

    private final Path base;
    private final List<Rule> rules;

    private IgnoreRules(Path base, List<Rule> rules) {
        this.base = base;
        this.rules = List.copyOf(rules);
    }

    /** The rules of {@code dir/.gitignore}; empty when there is none or it cannot be read. */
    static IgnoreRules load(Path dir) {
        Path file = dir.resolve(".gitignore");
        if (!Files.isRegularFile(file)) {
            return new IgnoreRules(dir, List.of());
        }
        try {
            return parse(dir, Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return new IgnoreRules(dir, List.of());
        }
    }

    static IgnoreRules parse(Path base, List<String> lines) {
        List<Rule> rules = new ArrayList<>();
        for (String line : lines) {
            Rule rule = parseLine(line);
            if (rule != null) {
                rules.add(rule);
            }
        }
        return new IgnoreRules(base, rules);
    }

    boolean isEmpty() {
        return rules.isEmpty();
    }

    /**
     * The decision of the last rule matching {@code path}: TRUE ignored, FALSE re-included, null
     * when no rule matches (outer rules then decide).
     */
    Boolean decide(Path path, boolean directory) {
        if (!path.startsWith(base) || path.equals(base)) {
            return null;
        }
        Path relative = base.relativize(path);
        Path name = path.getFileName();
        Boolean decision = null;
        for (Rule rule : rules) {
            if (rule.dirOnly() && !directory) {
                continue;
            }
            if (rule.matcher().matches(rule.anchored() ? relative : name)) {
                decision = !rule.negate();
            }
        }
        return decision;
    }

    /** Whether the rule sets, outermost first, ignore {@code path}; inner files override outer ones. */
    static boolean ignored(List<IgnoreRules> sets, Path path, boolean directory) {
        boolean ignored = false;
        for (IgnoreRules set : sets) {
            Boolean decision = set.decide(path, directory);
            if (decision != null) {
                ignored = decision;
            }
        }
        return ignored;
    }

    private static Rule parseLine(String line) {
        String text = line.stripTrailing();
        if (text.isEmpty() || text.startsWith("#")) {
            return null;
        }
        boolean negate = false;
        if (text.startsWith("!")) {
            negate = true;
            text = text.substring(1);
        } else if (text.startsWith("\\#") || text.startsWith("\\!")) {
            text = text.substring(1);
        }
        boolean dirOnly = text.endsWith("/");
        if (dirOnly) {
            text = text.substring(0, text.length() - 1);
        }
        boolean anchored = text.contains("/");
        if (text.startsWith("/")) {
            text = text.substring(1);
        }
        if (text.startsWith("**/") && !text.substring(3).contains("/")) {
            text = text.substring(3);
            anchored = false;
        }
        if (text.isEmpty()) {
            return null;
        }
        String glob = escape(text);
        if (anchored && text.startsWith("**/")) {
            glob = "{" + glob + "," + escape(text.substring(3)) + "}";
        }
        try {
            return new Rule(FileSystems.getDefault().getPathMatcher("glob:" + glob), negate, dirOnly, anchored);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Braces and commas are literal in gitignore but syntax in Java globs. */
    private static String escape(String pattern) {
        StringBuilder out = new StringBuilder(pattern.length());
        for (char c : pattern.toCharArray()) {
            if (c == '{' || c == '}' || c == ',') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
