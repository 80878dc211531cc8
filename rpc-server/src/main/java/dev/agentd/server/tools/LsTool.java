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
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** {@code ls {path?, limit?}}: one directory's entries, sorted, directories marked with {@code /}. */
public final class LsTool extends BaseTool {
    static final int DEFAULT_LIMIT = 500;
    private static final ToolParams PARAMS = ToolParams.builder()
            .optional("path", Type.STRING, "Directory to list (default: the working directory)")
            .optional("limit", Type.INTEGER, "Maximum number of entries to return (default " + DEFAULT_LIMIT + ")")
            .build();

    private final PathResolver paths;

    public LsTool(PathResolver paths) {
        super("ls", "List the entries of a directory, sorted alphabetically, including dotfiles. Directories "
                + "end with '/'. Returns at most " + DEFAULT_LIMIT + " entries unless limit says otherwise.", PARAMS);
        this.paths = paths;
    }

    @Override
    protected ToolResult run(ToolArgs args, CancellationToken cancel, Consumer<ToolOutput> onUpdate) {
        String raw = args.string("path", ".");
        int limit = orDefault(args.integerAtLeast("limit", 1), DEFAULT_LIMIT);
        Path dir = paths.resolve(raw);
        if (!Files.exists(dir)) {
            throw new ToolException("Path not found: " + raw);
        }
        if (!Files.isDirectory(dir)) {
            throw new ToolException("Not a directory: " + raw);
        }
        List<String> entries;
        try (Stream<Path> listing = Files.list(dir)) {
            entries = listing.map(p -> p.getFileName() + (Files.isDirectory(p) ? "/" : ""))
                    .sorted(Comparator.comparing((String s) -> s.toLowerCase(Locale.ROOT))
                            .thenComparing(Comparator.naturalOrder()))
                    .toList();
        } catch (IOException e) {
            throw ToolException.io(raw, e);
        }
        if (entries.isEmpty()) {
            return ToolResult.text("(empty directory)");
        }
        boolean limited = entries.size() > limit;
        Truncation.Result shown = Truncation.head(String.join("\n", limited ? entries.subList(0, limit) : entries),
                Integer.MAX_VALUE, Truncation.MAX_BYTES);
        StringBuilder text = new StringBuilder(shown.content());
        ObjectNode details = null;
        if (limited) {
            text.append("\n\n[Showing ").append(limit).append(" of ").append(entries.size())
                    .append(" entries. Use limit=").append(entries.size()).append(" to see all.]");
            details = Json.mapper().createObjectNode();
            details.put("entryLimitReached", limit);
        }
        if (shown.truncated()) {
            text.append("\n\n[Output truncated at ").append(Truncation.formatSize(Truncation.MAX_BYTES))
                    .append(" after ").append(shown.outputLines()).append(" entries.]");
            details = details == null ? Json.mapper().createObjectNode() : details;
            details.set("truncation", shown.toJson());
        }
        return new ToolResult(List.of(new ContentBlock.Text(text.toString())), details, false);
    }

    static int orDefault(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
