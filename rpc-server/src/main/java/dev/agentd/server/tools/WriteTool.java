package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.ToolParams.Type;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

    public WriteTool(PathResolver paths) {
        super("write", "Write content to a file, creating it (and any missing parent directories) or replacing it "
                + "entirely if it exists. Prefer edit for changing part of an existing file.", PARAMS);
        this.paths = paths;
    }

    @Override
    public Optional<String> writeTarget(JsonNode arguments) {
        return paths.writeTarget(arguments);
    }

    @Override
    protected ToolResult run(ToolArgs args, CancellationToken cancel, Consumer<ToolOutput> onUpdate) {
        String raw = args.string("path");
        Path file = paths.resolve(raw);
        if (Files.isDirectory(file)) {
            throw new ToolException("Path is a directory: " + raw);
        }
        PathResolver.requireOpenable(file, raw);
        byte[] bytes = args.string("content").getBytes(StandardCharsets.UTF_8);
        try {
            Path parent = file.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(file, bytes);
        } catch (IOException e) {
            throw ToolException.io(raw, e);
        }
        return ToolResult.text("Successfully wrote " + bytes.length + " bytes to " + raw);
    }
}
