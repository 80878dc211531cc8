package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.ToolParams.Type;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** {@code find {pattern, path?, limit?}}: paths below a directory matching a glob, honouring {@code .gitignore}. */
public final class FindTool extends BaseTool {
    static final int DEFAULT_LIMIT = 1000;
    private static final ToolParams PARAMS = ToolParams.builder()
            .required("pattern", Type.STRING, "Glob to match, e.g. '*.md' (file names at any depth) or "
                    + "'src/**/*.java' (paths relative to the search directory)")
            .optional("path", Type.STRING, "Directory to search in (default: the working directory)")
            .optional("limit", Type.INTEGER, "Maximum number of results (default " + DEFAULT_LIMIT + ")")
            .build();

    private final PathResolver paths;

    public FindTool(PathResolver paths) {
        super("find", "Find files and directories by glob pattern. A pattern without '/' matches names at any "
                + "depth; one with '/' matches paths relative to the search directory ('**' spans directories). "
                + "Skips .git and paths ignored by .gitignore. Directories end with '/'. Returns at most "
                + DEFAULT_LIMIT + " sorted results unless limit says otherwise.", PARAMS);
        this.paths = paths;
    }

    @Override
    protected ToolResult run(ToolArgs args, CancellationToken cancel, Consumer<ToolOutput> onUpdate)
            throws IOException {
        String raw = args.string("path", ".");
        int limit = LsTool.orDefault(args.integerAtLeast("limit", 1), DEFAULT_LIMIT);
        GlobFilter glob = GlobFilter.of(args.string("pattern"));
        Path root = paths.resolve(raw);
        if (!Files.exists(root)) {
            throw new ToolException("Path not found: " + raw);
        }
        if (!Files.isDirectory(root)) {
            throw new ToolException("Not a directory: " + raw);
        }
        List<String> found = new ArrayList<>();
        boolean[] more = {false};
        new FileWalker(cancel).walk(root, entry -> {
            if (glob.matches(entry.relative())) {
                if (found.size() == limit) {
                    more[0] = true;
                    return false;
                }
                found.add(entry.relative() + (entry.directory() ? "/" : ""));
            }
            return true;
        });
        if (cancel.isCancelled()) {
            throw new ToolException("Search aborted");
        }
        if (found.isEmpty()) {
            return ToolResult.text("No files found matching pattern");
        }
        found.sort(null);
        Truncation.Result shown = Truncation.head(String.join("\n", found), Integer.MAX_VALUE, Truncation.MAX_BYTES);
        StringBuilder text = new StringBuilder(shown.content());
        ObjectNode details = Json.mapper().createObjectNode();
        if (more[0]) {
            text.append("\n\n[").append(limit).append(" results limit reached. Use limit=").append(limit * 2L)
                    .append(" for more, or refine the pattern.]");
            details.put("resultLimitReached", limit);
        }
        if (shown.truncated()) {
            text.append("\n\n[Output truncated at ").append(Truncation.formatSize(Truncation.MAX_BYTES)).append(".]");
            details.set("truncation", shown.toJson());
        }
        return new ToolResult(List.of(new ContentBlock.Text(text.toString())), details.isEmpty() ? null : details,
                false);
    }
}
