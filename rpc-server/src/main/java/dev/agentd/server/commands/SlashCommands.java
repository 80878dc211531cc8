package dev.agentd.server.commands;

import dev.agentd.protocol.response.Results;
import dev.agentd.protocol.text.Lines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prompt templates ({@code prompts/NAME.md}) and skills ({@code skills/NAME/SKILL.md}) in the agent
 * directory (scope {@code user}) and the project directory {@code <cwd>/.agentd} (scope
 * {@code project}; it wins on a name clash), in pi 0.73's formats: optional front matter between
 * {@code ---} lines with {@code description:} (and a skill's {@code name:}). Read on each use, so an
 * edited file applies to the next prompt; a file that cannot be read is skipped with a warning.
 */
public final class SlashCommands {
    private static final Logger LOG = LoggerFactory.getLogger(SlashCommands.class);
    /** Larger files are not templates; skipping them bounds what a prompt can expand to. */
    private static final long MAX_BYTES = 256 * 1024;

    private final List<Root> roots;

    private record Root(Path dir, String scope) {}

    /** One template or skill. {@code name} is what follows the slash ({@code skill:x} for skills). */
    public record Entry(String name, String description, String source, String body, Path file, Path baseDir,
            String scope) {
        Results.SlashCommand toResult() {
            return new Results.SlashCommand(name, description, source,
                    new Results.SourceInfo(file.toString(), "local", scope, "top-level", baseDir.toString()));
        }
    }

    public SlashCommands(Path agentDir, Path projectDir) {
        this.roots = List.of(new Root(agentDir, "user"), new Root(projectDir, "project"));
    }

    /** No templates or skills (in-process sessions without directories). */
    public static SlashCommands none() {
        return new SlashCommands(null, null);
    }

    public List<Results.SlashCommand> list() {
        return entries().values().stream().map(Entry::toResult).toList();
    }

    /**
     * The prompt with a leading {@code /template args} or {@code /skill:name args} expanded as pi
     * does; any other text (including an unknown {@code /name}) is returned unchanged.
     */
    public String expand(String message) {
        if (message == null || !message.startsWith("/")) {
            return message;
        }
        int space = indexOfWhitespace(message);
        String name = message.substring(1, space);
        String rest = space < message.length() ? message.substring(space + 1) : "";
        Entry entry = entries().get(name);
        if (entry == null) {
            return message;
        }
        if (entry.source().equals("skill")) {
            String block = "<skill name=\"" + name.substring("skill:".length()) + "\" location=\"" + entry.file()
                    + "\">\nReferences are relative to " + entry.file().getParent() + ".\n\n" + entry.body().strip()
                    + "\n</skill>";
            return rest.isBlank() ? block : block + "\n\n" + rest;
        }
        return TemplateArgs.substitute(entry.body(), TemplateArgs.split(rest));
    }

    private static int indexOfWhitespace(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isWhitespace(text.charAt(i))) {
                return i;
            }
        }
        return text.length();
    }

    private Map<String, Entry> entries() {
        Map<String, Entry> found = new LinkedHashMap<>();
        for (Root root : roots) {
            if (root.dir() == null) {
                continue;
            }
            for (Path file : listFiles(root.dir().resolve("prompts"), false)) {
                String fileName = file.getFileName().toString();
                String name = fileName.substring(0, fileName.length() - ".md".length());
                read(file).ifPresent(text -> {
                    FrontMatter doc = FrontMatter.parse(text);
                    found.put(name, new Entry(name, doc.get("description").orElse(firstLine(doc.body())), "prompt",
                            doc.body(), file, root.dir().resolve("prompts"), root.scope()));
                });
            }
            for (Path file : listFiles(root.dir().resolve("skills"), true)) {
                read(file).ifPresent(text -> {
                    FrontMatter doc = FrontMatter.parse(text);
                    String name = "skill:" + doc.get("name").orElse(file.getParent().getFileName().toString());
                    found.put(name, new Entry(name, doc.get("description").orElse(firstLine(doc.body())), "skill",
                            doc.body(), file, root.dir().resolve("skills"), root.scope()));
                });
            }
        }
        return found;
    }

    private static List<Path> listFiles(Path dir, boolean skills) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(dir)) {
            List<Path> files = new ArrayList<>();
            for (Path child : children.sorted().toList()) {
                if (skills && Files.isRegularFile(child.resolve("SKILL.md"))) {
                    files.add(child.resolve("SKILL.md"));
                } else if (!skills && child.getFileName().toString().endsWith(".md") && Files.isRegularFile(child)) {
                    files.add(child);
                }
            }
            return files;
        } catch (IOException e) {
            LOG.warn("cannot list {}: {}", dir, e.toString());
            return List.of();
        }
    }

    private static Optional<String> read(Path file) {
        try {
            if (Files.size(file) > MAX_BYTES) {
                LOG.warn("skipping {}: larger than {} bytes", file, MAX_BYTES);
                return Optional.empty();
            }
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            LOG.warn("cannot read {}: {}", file, e.toString());
            return Optional.empty();
        }
    }

    /** The description of a file without one: its first non-blank line, cut to 60 characters. */
    private static String firstLine(String body) {
        return Lines.firstNonBlankLine(body)
                .map(text -> text.length() > 60 ? text.substring(0, 60) + "..." : text).orElse(null);
    }
}
