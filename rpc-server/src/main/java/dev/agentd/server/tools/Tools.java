package dev.agentd.server.tools;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** Builds the built-in tools by name (the {@code --tools} option), all working in one session cwd. */
public final class Tools {
    /** Enabled when {@code --tools} is not given. */
    public static final List<String> DEFAULT = List.of("read", "write", "edit", "bash");
    /** Every built-in tool, in announcement order; {@code todo} is opt-in (an editor shows its list as a plan). */
    public static final List<String> KNOWN = List.of("read", "write", "edit", "bash", "ls", "grep", "find",
            TodoTool.NAME);

    private Tools() {}

    /**
     * The named tools, in the order given (duplicates dropped).
     *
     * @throws IllegalArgumentException for an unknown name, naming it and the known ones
     */
    public static List<Tool> create(Path cwd, List<String> names) {
        return create(cwd, names, FileAccess.LOCAL);
    }

    /** As {@link #create(Path, List)}, with {@code read}, {@code edit} and {@code write} using {@code files}. */
    public static List<Tool> create(Path cwd, List<String> names, FileAccess files) {
        PathResolver paths = new PathResolver(cwd);
        BashExecutor executor = new BashExecutor();
        Map<String, Function<PathResolver, Tool>> factories = Map.of(
                "read", p -> new ReadTool(p, files),
                "write", p -> new WriteTool(p, files),
                "edit", p -> new EditTool(p, files),
                "bash", p -> new BashTool(p.cwd(), executor),
                "ls", LsTool::new,
                "grep", GrepTool::new,
                "find", FindTool::new,
                TodoTool.NAME, p -> new TodoTool());
        List<Tool> tools = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String raw : names) {
            String name = raw == null ? "" : raw.strip();
            Function<PathResolver, Tool> factory = factories.get(name);
            if (factory == null) {
                throw new IllegalArgumentException("Unknown tool '" + raw + "'. Known tools: " + String.join(", ", KNOWN));
            }
            if (seen.add(name)) {
                tools.add(factory.apply(paths));
            }
        }
        return tools;
    }
}
