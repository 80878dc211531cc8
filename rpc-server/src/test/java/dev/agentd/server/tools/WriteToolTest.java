package dev.agentd.server.tools;

import static dev.agentd.server.tools.ToolCalls.call;
import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteToolTest {
    @TempDir
    Path root;
    Path cwd;
    WriteTool write;

    @BeforeEach
    void setUp() throws Exception {
        cwd = Files.createDirectories(root.resolve("project"));
        write = new WriteTool(new PathResolver(cwd));
    }

    @Test
    void createsParentDirectoriesAndReportsTheByteCount() throws Exception {
        ToolResult result = call(write, "{\"path\":\"a/b/c.txt\",\"content\":\"h\u00e9llo\"}");
        assertFalse(result.isError());
        assertEquals("Successfully wrote 6 bytes to a/b/c.txt", text(result));
        assertEquals("h\u00e9llo", Files.readString(cwd.resolve("a/b/c.txt")));
    }

    /** sysfs refuses to create files even for root, so this case is observable on CI machines. */
    @Test
    void aRefusedWriteIsReportedAsPermissionDenied() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/sys/kernel")), "needs Linux sysfs");
        ToolResult result = call(write, "{\"path\":\"/sys/agentd-write-test\",\"content\":\"x\"}");
        assertTrue(result.isError());
        assertEquals("Permission denied: /sys/agentd-write-test", text(result));
    }

    @Test
    void overwritesAnExistingFile() throws Exception {
        Files.writeString(cwd.resolve("f.txt"), "a much longer original content");
        call(write, "{\"path\":\"f.txt\",\"content\":\"short\"}");
        assertEquals("short", Files.readString(cwd.resolve("f.txt")));
    }

    @Test
    void writesOutsideTheCwdAsAsked() throws Exception {
        ToolResult result = call(write, "{\"path\":\"../elsewhere/x.txt\",\"content\":\"out\"}");
        assertFalse(result.isError(), text(result));
        assertEquals("out", Files.readString(root.resolve("elsewhere/x.txt")));
        Path absolute = root.resolve("abs.txt");
        call(write, "{\"path\":\"" + absolute + "\",\"content\":\"abs\"}");
        assertEquals("abs", Files.readString(absolute));
    }

    @Test
    void aDirectoryCannotBeOverwritten() throws Exception {
        Files.createDirectory(cwd.resolve("dir"));
        ToolResult result = call(write, "{\"path\":\"dir\",\"content\":\"x\"}");
        assertTrue(result.isError());
        assertEquals("Path is a directory: dir", text(result));
    }

    @Test
    void emptyContentIsAllowedButMissingContentIsNot() throws Exception {
        assertEquals("Successfully wrote 0 bytes to e.txt", text(call(write, "{\"path\":\"e.txt\",\"content\":\"\"}")));
        assertEquals("Invalid arguments for write: 'content' is required", text(call(write, "{\"path\":\"e.txt\"}")));
    }
}
