package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.ToolParams.Type;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;

/** {@code read {path, offset?, limit?}}: a text file (head-truncated, with a continuation hint) or an image. */
public final class ReadTool extends BaseTool {
    /** Providers reject larger images; better a clear error than a failed request. */
    static final long MAX_IMAGE_BYTES = 5L * 1024 * 1024;

    private static final ToolParams PARAMS = ToolParams.builder()
            .required("path", Type.STRING, "Path to the file to read (relative to the working directory, or absolute)")
            .optional("offset", Type.INTEGER, "Line number to start reading from (1-based)")
            .optional("limit", Type.INTEGER, "Maximum number of lines to read")
            .build();

    private final PathResolver paths;
    private final FileAccess files;

    public ReadTool(PathResolver paths) {
        this(paths, FileAccess.LOCAL);
    }

    /** @param files where a text file's content is read (the disk, or an editor's buffers); images stay local */
    public ReadTool(PathResolver paths, FileAccess files) {
        super("read", "Read the contents of a file. Supports text files and images (png, jpeg, gif, webp), which are "
                + "returned as attachments. Text output is truncated to " + Truncation.MAX_LINES + " lines or "
                + Truncation.MAX_BYTES / 1024 + "KB, whichever comes first; use offset/limit to page through large "
                + "files.", PARAMS);
        this.paths = paths;
        this.files = files;
    }

    @Override
    protected ToolResult run(ToolArgs args, CancellationToken cancel, Consumer<ToolOutput> onUpdate) {
        String raw = args.string("path");
        Integer offset = args.integerAtLeast("offset", 1);
        Integer limit = args.integerAtLeast("limit", 1);
        Path file = paths.file(raw, ". Use ls to list its contents.");
        try {
            FileKind kind = FileKind.detect(file);
            return switch (kind.kind()) {
                case IMAGE -> readImage(file, raw, kind.mimeType());
                case BINARY -> throw new ToolException("Cannot read binary file: " + raw
                        + " (it is not text and not a supported image format)");
                case TEXT -> readText(file, raw, offset == null ? 1 : offset, limit, cancel);
            };
        } catch (IOException e) {
            throw ToolException.io(raw, e);
        }
    }

    private static ToolResult readImage(Path file, String raw, String mimeType) throws IOException {
        long size = Files.size(file);
        if (size > MAX_IMAGE_BYTES) {
            throw new ToolException("Image too large to attach: " + raw + " is " + Truncation.formatSize(size)
                    + " (limit " + Truncation.formatSize(MAX_IMAGE_BYTES) + ")");
        }
        String data = Base64.getEncoder().encodeToString(Files.readAllBytes(file));
        return new ToolResult(List.of(new ContentBlock.Text("Read image file " + raw + " [" + mimeType + "]"),
                new ContentBlock.Image(data, mimeType)), null, false);
    }

    private ToolResult readText(Path file, String raw, int offset, Integer limit, CancellationToken cancel)
            throws IOException {
        Truncation.Head head = new Truncation.Head(Truncation.MAX_LINES, Truncation.MAX_BYTES);
        long lineNo = 0;
        long selectedEnd = limit == null ? Long.MAX_VALUE : (long) offset - 1 + limit;
        // The disk is streamed (a huge file costs bounded memory); another access hands over the whole text.
        try (BoundedLines reader = files == FileAccess.LOCAL
                ? new BoundedLines(file, Truncation.MAX_LINE_CHARS + 1, cancel)
                : new BoundedLines(new ByteArrayInputStream(files.read(file, cancel)), Truncation.MAX_LINE_CHARS + 1,
                        cancel)) {
            BoundedLines.Line line;
            while ((line = reader.next()) != null) {
                lineNo++;
                if (lineNo == 1 && line.text().startsWith("\uFEFF")) {
                    line = new BoundedLines.Line(line.text().substring(1), line.length() - 1);
                }
                if (lineNo >= offset && lineNo <= selectedEnd) {
                    head.add(line.shown(Truncation.MAX_LINE_CHARS));
                }
                if ((lineNo & 0xFFF) == 0 && cancel.isCancelled()) {
                    throw new ToolException("Read aborted");
                }
            }
        }
        long total = lineNo;
        if (total == 0) {
            return ToolResult.text("(empty file)");
        }
        if (offset > total) {
            throw new ToolException("Offset " + offset + " is beyond end of file (" + total + " lines total)");
        }
        Truncation.Result result = head.result();
        StringBuilder text = new StringBuilder(result.content());
        ObjectNode details = null;
        long lastShown = offset - 1L + result.outputLines();
        if (result.truncated()) {
            text.append("\n\n[Showing lines ").append(offset).append('-').append(lastShown).append(" of ")
                    .append(total).append(result.truncatedBy() == Truncation.Limit.BYTES
                            ? " (" + Truncation.formatSize(Truncation.MAX_BYTES) + " limit)" : "")
                    .append(". Use offset=").append(lastShown + 1).append(" to continue.]");
            details = Json.mapper().createObjectNode();
            details.set("truncation", result.toJson());
        } else if (lastShown < total) {
            text.append("\n\n[").append(total - lastShown).append(" more lines in file. Use offset=")
                    .append(lastShown + 1).append(" to continue.]");
        }
        // pi 1.x gives programs the text read as structuredContent, a string; here the same text as the model's
        String shown = text.toString();
        return new ToolResult(List.of(new ContentBlock.Text(shown)), details, false, TextNode.valueOf(shown));
    }
}
