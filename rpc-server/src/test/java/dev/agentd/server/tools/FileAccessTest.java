package dev.agentd.server.tools;

import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.runtime.CancellationToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code edit} and {@code write} take a file's content from a {@link FileAccess} (an editor's buffers in ACP). */
class FileAccessTest {
    @TempDir
    Path cwd;

    /** Buffers in memory; the disk is never touched through it. */
    static final class Buffers implements FileAccess {
        final Map<Path, String> content = new HashMap<>();

        @Override
        public byte[] read(Path file, CancellationToken cancel) {
            return content.getOrDefault(file, "").getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void write(Path file, String text, CancellationToken cancel) {
            content.put(file, text);
        }
    }

    @Test
    void editReadsAndWritesThroughTheAccessNotTheDisk() throws Exception {
        Path file = cwd.resolve("a.txt");
        Files.writeString(file, "on disk\n");
        Buffers buffers = new Buffers();
        buffers.content.put(file, "in the buffer\n");
        ObjectNode args = Json.mapper().createObjectNode().put("path", "a.txt").put("oldText", "buffer")
                .put("newText", "editor");
        ToolResult result = new EditTool(new PathResolver(cwd), buffers).execute("c", args, null, null);
        assertFalse(result.isError(), text(result));
        assertEquals("in the editor\n", buffers.content.get(file));
        assertEquals("on disk\n", Files.readString(file));
    }

    @Test
    void readTakesTheTextFromTheAccess() throws Exception {
        Path file = cwd.resolve("r.txt");
        Files.writeString(file, "on disk\n");
        Buffers buffers = new Buffers();
        buffers.content.put(file, "one\ntwo\nthree\n");
        ObjectNode args = Json.mapper().createObjectNode().put("path", "r.txt").put("offset", 2).put("limit", 1);
        ToolResult result = new ReadTool(new PathResolver(cwd), buffers).execute("c", args, null, null);
        assertEquals("two\n\n[1 more lines in file. Use offset=3 to continue.]", text(result));
    }

    @Test
    void writeGoesThroughTheAccess() throws Exception {
        Buffers buffers = new Buffers();
        ObjectNode args = Json.mapper().createObjectNode().put("path", "new/b.txt").put("content", "hello");
        ToolResult result = new WriteTool(new PathResolver(cwd), buffers).execute("c", args, null, null);
        assertEquals("Successfully wrote 5 bytes to new/b.txt", text(result));
        assertEquals("hello", buffers.content.get(cwd.resolve("new/b.txt")));
        assertFalse(Files.exists(cwd.resolve("new")));
    }

    @Test
    void aFailingAccessIsAToolErrorNamingThePath() throws Exception {
        FileAccess refusing = new FileAccess() {
            @Override
            public byte[] read(Path file, CancellationToken cancel) throws IOException {
                throw new IOException("the editor refused");
            }

            @Override
            public void write(Path file, String content, CancellationToken cancel) throws IOException {
                throw new IOException("the editor refused");
            }
        };
        ObjectNode args = Json.mapper().createObjectNode().put("path", "c.txt").put("content", "x");
        ToolResult result = new WriteTool(new PathResolver(cwd), refusing).execute("c", args, null, null);
        assertTrue(result.isError());
        assertTrue(text(result).contains("c.txt"), text(result));
    }

    @Test
    void toolsCreateHandsTheAccessToEditAndWrite() throws Exception {
        Buffers buffers = new Buffers();
        List<Tool> tools = Tools.create(cwd, List.of("write"), buffers);
        tools.get(0).execute("c", Json.mapper().createObjectNode().put("path", "d.txt").put("content", "y"),
                CancellationToken.none(), null);
        assertEquals("y", buffers.content.get(cwd.resolve("d.txt")));
    }
}
