package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.ToolParams.Type;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/** {@code write {path, content}}: creates parent directories and overwrites the file. */
public final class WriteTool extends BaseTool {
    private static final ToolParams PARAMS = ToolParams.builder()
            .required("path", Type.STRING, "Path to the file to write (relative to the working directory, or absolute)")
            .required("content", Type.STRING, "The complete new content of the file")
            .build();

    private final PathResolver paths;
    private final FileAccess files;

    public WriteTool(PathResolver paths) {
        this(paths, FileAccess.LOCAL);
    }

    /** @param files where the content is written (the disk, or an editor's buffers) */
    public WriteTool(PathResolver paths, FileAccess files) {
        super("write", "Write content to a file, creating it (and any missing parent directories) or replacing it "
                + "entirely if it exists. Prefer edit for changing part of an existing file.", PARAMS);
        this.paths = paths;
        this.files = files;
    }

    @Override
    public Optional<String> writeTarget(JsonNode arguments) {
        return paths.writeTarget(arguments);
    }

    @Override
    protected ToolResult run(ToolArgs args, CancellationToken cancel, Consumer<ToolOutput> onUpdate) {
        String raw = args.string("path");
        Path file = paths.file(raw);
        String content = args.string("content");
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        try {
            files.write(file, content, cancel);
        } catch (IOException e) {
            throw ToolException.io(raw, e);
        }
        return ToolResult.text("Successfully wrote " + bytes.length + " bytes to " + raw);
    }
}
