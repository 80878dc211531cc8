package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.ToolParams.Type;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code edit {path, oldText, newText}}: replaces exactly one occurrence. Matching happens on
 * LF-normalised text without a BOM, so the model need not reproduce CRLF; the file is written back
 * with its BOM and, for a CRLF file, CRLF everywhere (a mixed-ending file becomes uniformly CRLF).
 */
public final class EditTool extends BaseTool {
    private static final String BOM = "\uFEFF";
    /** The whole file is held a few times over (bytes, text, result): keep that far from the heap's size. */
    static final long MAX_BYTES = 64L * 1024 * 1024;
    private static final ToolParams PARAMS = ToolParams.builder()
            .required("path", Type.STRING, "Path to the file to edit (relative to the working directory, or absolute)")
            .required("oldText", Type.STRING, "Exact text to find; must occur exactly once in the file")
            .required("newText", Type.STRING, "Text to replace it with")
            .build();

    private final PathResolver paths;
    private final FileAccess files;

    public EditTool(PathResolver paths) {
        this(paths, FileAccess.LOCAL);
    }

    /** @param files where the content is read and written (the disk, or an editor's buffers) */
    public EditTool(PathResolver paths, FileAccess files) {
        super("edit", "Edit a file by replacing one exact occurrence of oldText with newText. oldText must match "
                + "the file exactly, including whitespace and indentation, and must be unique: include enough "
                + "surrounding lines to make it so.", PARAMS);
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
        String oldText = normalize(args.string("oldText"));
        String newText = normalize(args.string("newText"));
        if (oldText.isEmpty()) {
            throw new ToolException("Invalid arguments for edit: 'oldText' must not be empty");
        }
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ToolException("File too large to edit: " + raw + " is " + Truncation.formatSize(size)
                        + " (limit " + Truncation.formatSize(MAX_BYTES) + "); use bash tools such as sed instead");
            }
            byte[] bytes = files.read(file, cancel);
            if (FileKind.detect(bytes).kind() != FileKind.Kind.TEXT) {
                throw new ToolException("Cannot edit binary file: " + raw);
            }
            String original = decode(bytes, raw);
            boolean bom = original.startsWith(BOM);
            String body = bom ? original.substring(1) : original;
            boolean crlf = usesCrlf(body);
            String content = normalize(body);

            int at = content.indexOf(oldText);
            if (at < 0) {
                throw new ToolException("Could not find the exact text in " + raw + ". The old text must match "
                        + "exactly, including all whitespace and newlines.");
            }
            int occurrences = count(content, oldText);
            if (occurrences > 1) {
                throw new ToolException("Found " + occurrences + " occurrences of the text in " + raw + ". The text "
                        + "must be unique: provide more surrounding context to identify the one to change.");
            }
            String updated = content.substring(0, at) + newText + content.substring(at + oldText.length());
            if (updated.equals(content)) {
                throw new ToolException("No changes made to " + raw + ": the replacement is identical to the "
                        + "original text.");
            }
            String out = (bom ? BOM : "") + (crlf ? updated.replace("\n", "\r\n") : updated);
            files.write(file, out, cancel);

            LineDiff.Diff diff = LineDiff.unified(raw, content, updated, LineDiff.DEFAULT_CONTEXT);
            ObjectNode details = Json.mapper().createObjectNode();
            details.put("diff", diff.text());
            details.put("firstChangedLine", diff.firstChangedLine());
            return new ToolResult(List.of(new ContentBlock.Text("Successfully replaced text in " + raw + ".")),
                    details, false);
        } catch (IOException e) {
            throw ToolException.io(raw, e);
        }
    }

    /** Strict decoding: writing back a lossy decode would corrupt the file's other bytes. */
    private static String decode(byte[] bytes, String raw) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ToolException("Cannot edit " + raw + ": it is not valid UTF-8 text");
        }
    }

    /** The file's style is that of its first line ending. */
    static boolean usesCrlf(String text) {
        int lf = text.indexOf('\n');
        return lf > 0 && text.charAt(lf - 1) == '\r';
    }

    static String normalize(String text) {
        return text.replace("\r\n", "\n");
    }

    private static int count(String text, String needle) {
        int count = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
            count++;
        }
        return count;
    }
}
