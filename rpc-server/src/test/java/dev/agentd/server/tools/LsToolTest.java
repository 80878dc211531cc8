package dev.agentd.server.tools;

import static dev.agentd.server.tools.ToolCalls.call;
import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LsToolTest {
    @TempDir
    Path cwd;
    LsTool ls;

    @BeforeEach
    void setUp() {
        ls = new LsTool(new PathResolver(cwd));
    }

    @Test
    void listsSortedEntriesWithDirectorySuffixAndDotfiles() throws Exception {
        Files.createDirectories(cwd.resolve("src/main"));
        Files.writeString(cwd.resolve("README.md"), "");
        Files.writeString(cwd.resolve(".env"), "");
        Files.writeString(cwd.resolve("build.gradle"), "");
        Files.createDirectory(cwd.resolve(".git"));
        assertEquals(".env\n.git/\nbuild.gradle\nREADME.md\nsrc/", text(call(ls, "{}")));
        assertEquals("main/", text(call(ls, "{\"path\":\"src\"}")));
    }

    @Test
    void theLimitIsAnnounced() throws Exception {
        for (int i = 0; i < 5; i++) {
            Files.writeString(cwd.resolve("f" + i), "");
        }
        ToolResult result = call(ls, "{\"limit\":3}");
        assertEquals("f0\nf1\nf2\n\n[Showing 3 of 5 entries. Use limit=5 to see all.]", text(result));
        assertEquals(3, result.details().path("entryLimitReached").asInt());
    }

    @Test
    void errorsAndEmptyDirectories() throws Exception {
        assertEquals("Path not found: nowhere", text(call(ls, "{\"path\":\"nowhere\"}")));
        Files.writeString(cwd.resolve("file.txt"), "");
        ToolResult notDir = call(ls, "{\"path\":\"file.txt\"}");
        assertTrue(notDir.isError());
        assertEquals("Not a directory: file.txt", text(notDir));
        Files.createDirectory(cwd.resolve("empty"));
        assertEquals("(empty directory)", text(call(ls, "{\"path\":\"empty\"}")));
    }
}
