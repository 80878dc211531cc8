package dev.agentd.server.tools;

import static dev.agentd.server.tools.ToolCalls.call;
import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EditToolTest {
    @TempDir
    Path cwd;
    EditTool edit;

    @BeforeEach
    void setUp() {
        edit = new EditTool(new PathResolver(cwd));
    }

    /** Arguments built with Jackson, so texts with newlines and quotes need no hand escaping. */
    private ToolResult edit(String path, String oldText, String newText) throws Exception {
        ObjectNode args = Json.mapper().createObjectNode().put("path", path).put("oldText", oldText)
                .put("newText", newText);
        return edit.execute("c", args, null, null);
    }

    @Test
    void replacesTheOneOccurrenceAndReportsADiff() throws Exception {
        Files.writeString(cwd.resolve("f.txt"), "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n");
        ToolResult result = edit("f.txt", "five\n", "FIVE\nfive and a half\n");
        assertFalse(result.isError(), text(result));
        assertEquals("Successfully replaced text in f.txt.", text(result));
        assertEquals("one\ntwo\nthree\nfour\nFIVE\nfive and a half\nsix\nseven\neight\n",
                Files.readString(cwd.resolve("f.txt")));
        assertEquals(5, result.details().path("firstChangedLine").asInt());
        assertEquals("--- f.txt\n+++ f.txt\n@@ -2,7 +2,8 @@\n two\n three\n four\n-five\n+FIVE\n+five and a half\n"
                + " six\n seven\n eight\n", result.details().path("diff").asText());
    }

    @Test
    void noMatchIsAnError() throws Exception {
        Files.writeString(cwd.resolve("f.txt"), "alpha\n");
        ToolResult result = edit("f.txt", "beta", "gamma");
        assertTrue(result.isError());
        assertTrue(text(result).startsWith("Could not find the exact text in f.txt"), text(result));
        assertEquals("alpha\n", Files.readString(cwd.resolve("f.txt")));
    }

    @Test
    void severalMatchesAreAnErrorAskingForContext() throws Exception {
        Files.writeString(cwd.resolve("f.txt"), "x = 1;\ny = 2;\nx = 1;\n");
        ToolResult result = edit("f.txt", "x = 1;", "x = 3;");
        assertTrue(result.isError());
        assertTrue(text(result).startsWith("Found 2 occurrences of the text in f.txt"), text(result));
        assertTrue(text(result).contains("context"), text(result));
        assertEquals("x = 1;\ny = 2;\nx = 1;\n", Files.readString(cwd.resolve("f.txt")));
    }

    @Test
    void crlfFilesMatchLfTextAndKeepTheirLineEndings() throws Exception {
        Files.writeString(cwd.resolve("win.txt"), "a\r\nb\r\nc\r\n");
        ToolResult result = edit("win.txt", "b\nc", "B\nC\nD");
        assertFalse(result.isError(), text(result));
        assertEquals("a\r\nB\r\nC\r\nD\r\n", Files.readString(cwd.resolve("win.txt")));
        assertEquals(2, result.details().path("firstChangedLine").asInt());
    }

    @Test
    void aByteOrderMarkIsKept() throws Exception {
        Files.write(cwd.resolve("bom.txt"), "\uFEFFhello world\n".getBytes(StandardCharsets.UTF_8));
        assertFalse(edit("bom.txt", "hello", "goodbye").isError());
        assertEquals("\uFEFFgoodbye world\n", new String(Files.readAllBytes(cwd.resolve("bom.txt")),
                StandardCharsets.UTF_8));
    }

    @Test
    void missingFilesEmptyOldTextAndNoOpsAreErrors() throws Exception {
        assertEquals("File not found: none.txt", text(edit("none.txt", "a", "b")));
        Files.writeString(cwd.resolve("f.txt"), "same\n");
        assertEquals("Invalid arguments for edit: 'oldText' must not be empty", text(edit("f.txt", "", "x")));
        ToolResult same = edit("f.txt", "same", "same");
        assertTrue(same.isError());
        assertTrue(text(same).startsWith("No changes made to f.txt"), text(same));
    }

    @Test
    void binaryAndNonUtf8FilesAreNotEdited() throws Exception {
        Files.write(cwd.resolve("b.bin"), new byte[] {'a', 0, 'b'});
        assertEquals("Cannot edit binary file: b.bin", text(edit("b.bin", "a", "c")));
        Files.write(cwd.resolve("latin1.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9});
        assertTrue(text(edit("latin1.txt", "caf", "bar")).contains("not valid UTF-8"));
    }

    @Test
    void diffsAtTheEdgesOfAFile() {
        LineDiff.Diff start = LineDiff.unified("f", "a\nb\n", "z\nb\n", 3);
        assertEquals("--- f\n+++ f\n@@ -1,2 +1,2 @@\n-a\n+z\n b\n", start.text());
        assertEquals(1, start.firstChangedLine());
        LineDiff.Diff deletion = LineDiff.unified("f", "a\nb\nc", "a\nc", 0);
        assertEquals("--- f\n+++ f\n@@ -2,1 +1,0 @@\n-b\n", deletion.text());
        assertEquals(2, deletion.firstChangedLine());
    }
}
