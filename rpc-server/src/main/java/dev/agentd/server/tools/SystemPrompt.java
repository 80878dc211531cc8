package dev.agentd.server.tools;

import dev.agentd.server.ai.ToolDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The system prompt of a session: role, the enabled tools with one line of guidance each, working
 * rules that depend on which tools exist, the date and cwd, and the project's {@code AGENTS.md}.
 * {@link #build()} reads AGENTS.md afresh each time, so edits to it apply to the next request.
 */
public final class SystemPrompt {
    private static final Logger LOG = LoggerFactory.getLogger(SystemPrompt.class);
    static final int MAX_CONTEXT_BYTES = 64 * 1024;
    static final String CONTEXT_FILE = "AGENTS.md";

    private static final Map<String, String> GUIDANCE = Map.of(
            "read", "Read a file's contents (text, or images as attachments); page through large files with "
                    + "offset/limit.",
            "write", "Create a file or replace its entire content; parent directories are created.",
            "edit", "Replace one exact, unique occurrence of oldText with newText in a file.",
            "bash", "Run a shell command in the working directory (ls, git, builds, tests…).",
            "ls", "List a directory's entries.",
            "grep", "Search file contents for a regex or literal text (respects .gitignore).",
            "find", "Find files by glob pattern (respects .gitignore).");

    private final Path cwd;
    private final List<ToolDefinition> tools;
    private final Clock clock;

    /** Dates the prompt by the system clock in the default time zone, looked up at the first build. */
    public static SystemPrompt onSystemClock(Path cwd, List<ToolDefinition> tools) {
        return new SystemPrompt(cwd, tools, null);
    }

    /**
     * @param clock gives the date written into the prompt; null for the system clock in the default
     *     zone, resolved when first needed: time zone data is not loaded on the path to ready
     */
    public SystemPrompt(Path cwd, List<ToolDefinition> tools, Clock clock) {
        this.cwd = cwd.toAbsolutePath().normalize();
        this.tools = List.copyOf(tools);
        this.clock = clock;
    }

    public String build() {
        StringBuilder out = new StringBuilder();
        out.append("You are an expert coding assistant running inside agentd, a headless agent daemon. You help "
                + "the user with software engineering tasks: reading code, running commands, editing and writing "
                + "files.\n\n");
        if (tools.isEmpty()) {
            out.append("No tools are available in this session: answer from the conversation and your own "
                    + "knowledge.\n\n");
        } else {
            out.append("Available tools:\n");
            for (ToolDefinition tool : tools) {
                out.append("- ").append(tool.name()).append(": ").append(guidance(tool)).append('\n');
            }
            out.append('\n');
        }
        out.append("Guidelines:\n");
        for (String rule : rules()) {
            out.append("- ").append(rule).append('\n');
        }
        out.append("\nCurrent date: ").append(LocalDate.now(clock != null ? clock : Clock.systemDefaultZone()))
                .append('\n');
        out.append("Current working directory: ").append(cwd).append('\n');
        String context = projectContext();
        if (context != null) {
            out.append("\n# Project context\n\nProject-specific instructions from ").append(CONTEXT_FILE)
                    .append(":\n\n## ").append(cwd.resolve(CONTEXT_FILE)).append("\n\n").append(context);
            if (!context.endsWith("\n")) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    private List<String> rules() {
        Set<String> names = tools.stream().map(ToolDefinition::name).collect(Collectors.toSet());
        Map<String, Boolean> rules = new LinkedHashMap<>();
        rules.put("Read a file before editing it, so that oldText matches exactly.",
                names.contains("read") && names.contains("edit"));
        rules.put("Use edit for targeted changes; use write only for new files or complete rewrites.",
                names.contains("edit") && names.contains("write"));
        rules.put("Prefer grep, find and ls over bash for exploring files: they are faster and respect "
                + ".gitignore.", names.contains("bash") && (names.contains("grep") || names.contains("find")));
        rules.put("Use bash for file operations such as ls, grep and find.",
                names.contains("bash") && !names.contains("grep") && !names.contains("find"));
        rules.put("Relative paths are resolved against the working directory; ~ is the home directory.",
                !names.isEmpty());
        rules.put("When you are done, summarise what you did in plain text; do not use tools just to display "
                + "a summary.", !names.isEmpty());
        rules.put("Be concise, and name file paths clearly when you mention files.", true);
        return rules.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    }

    private static String guidance(ToolDefinition tool) {
        String known = GUIDANCE.get(tool.name());
        if (known != null) {
            return known;
        }
        String description = tool.description() == null ? "" : tool.description().strip();
        int end = description.indexOf(". ");
        return end >= 0 ? description.substring(0, end + 1) : description;
    }

    /** AGENTS.md in the cwd, cut to {@value #MAX_CONTEXT_BYTES} bytes; null when absent or unreadable. */
    private String projectContext() {
        Path file = cwd.resolve(CONTEXT_FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_CONTEXT_BYTES + 1);
            if (bytes.length <= MAX_CONTEXT_BYTES) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
            String text = new String(bytes, 0, MAX_CONTEXT_BYTES, StandardCharsets.UTF_8);
            return text + "\n[" + CONTEXT_FILE + " truncated at " + Truncation.formatSize(MAX_CONTEXT_BYTES) + "]\n";
        } catch (IOException e) {
            LOG.warn("could not read {}: {}", file, e.getMessage());
            return null;
        }
    }
}
