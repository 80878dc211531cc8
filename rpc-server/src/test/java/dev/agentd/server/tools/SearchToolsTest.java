package dev.agentd.server.tools;

import static dev.agentd.server.tools.ToolCalls.call;
import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** grep and find over one small repository. */
class SearchToolsTest {
    @TempDir
    Path cwd;
    GrepTool grep;
    FindTool find;

    @BeforeEach
    void setUp() throws Exception {
        PathResolver paths = new PathResolver(cwd);
        grep = new GrepTool(paths);
        find = new FindTool(paths);
        write(".gitignore", "build/\n*.log\n!keep.log\n/secret.txt\n");
        write(".git/config", "TODO in git internals\n");
        write("Main.java", "class Main {\n  // TODO: main\n}\n");
        write("src/app/App.java", "package app;\n// todo lower\nclass App {}\n");
        write("src/app/Util.kt", "// TODO kotlin\n");
        write("docs/README.md", "# Docs\nTODO write docs\n");
        write("build/Gen.java", "// TODO generated\n");
        write("debug.log", "TODO in log\n");
        write("keep.log", "TODO kept\n");
        write("secret.txt", "TODO secret\n");
        write("sub/secret.txt", "TODO not the root one\n");
        Files.write(cwd.resolve("data.bin"), new byte[] {'T', 'O', 'D', 'O', 0, 1});
    }

    private void write(String relative, String content) throws Exception {
        Path file = cwd.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @Test
    void grepFindsMatchesRespectingGitignoreGitAndBinaries() throws Exception {
        ToolResult result = call(grep, "{\"pattern\":\"TODO\"}");
        assertFalse(result.isError());
        assertEquals("Main.java:2:   // TODO: main\n"
                + "docs/README.md:2: TODO write docs\n"
                + "keep.log:1: TODO kept\n"
                + "src/app/Util.kt:1: // TODO kotlin\n"
                + "sub/secret.txt:1: TODO not the root one", text(result));
    }

    @Test
    void grepGlobIgnoreCaseAndLiteral() throws Exception {
        assertEquals("Main.java:2:   // TODO: main\nsrc/app/App.java:2: // todo lower",
                text(call(grep, "{\"pattern\":\"todo\",\"glob\":\"*.java\",\"ignoreCase\":true}")));
        assertEquals("src/app/App.java:2: // todo lower",
                text(call(grep, "{\"pattern\":\"todo\",\"glob\":\"src/**/*.java\"}")));
        assertEquals("No matches found", text(call(grep, "{\"pattern\":\"TODO.\",\"literal\":true}")));
        assertEquals("Main.java:2:   // TODO: main",
                text(call(grep, "{\"pattern\":\"TODO:\",\"literal\":true}")));
    }

    @Test
    void grepContextLimitAndSingleFile() throws Exception {
        write("ctx.txt", "a\nb\nMATCH 1\nc\nd\ne\nMATCH 2\nf\n");
        assertEquals("ctx.txt-2- b\nctx.txt:3: MATCH 1\nctx.txt-4- c\n--\nctx.txt-6- e\nctx.txt:7: MATCH 2\n"
                + "ctx.txt-8- f", text(call(grep, "{\"pattern\":\"MATCH\",\"path\":\"ctx.txt\",\"context\":1}")));
        ToolResult limited = call(grep, "{\"pattern\":\"MATCH\",\"path\":\"ctx.txt\",\"limit\":1}");
        assertEquals("ctx.txt:3: MATCH 1\n\n[1 matches limit reached. Use limit=2 for more, or refine the pattern.]",
                text(limited));
        assertEquals(1, limited.details().path("matchLimitReached").asInt());
    }

    @Test
    void grepCutsLongLinesAndRejectsBadRegexes() throws Exception {
        write("long.txt", "x".repeat(800) + "NEEDLE");
        String text = text(call(grep, "{\"pattern\":\"x+\",\"path\":\"long.txt\"}"));
        assertTrue(text.startsWith("long.txt:1: " + "x".repeat(500) + "... [line truncated, 806 chars]"), text);
        assertTrue(text.contains("Some lines were cut"), text);
        ToolResult bad = call(grep, "{\"pattern\":\"(unclosed\"}");
        assertTrue(bad.isError());
        assertTrue(text(bad).startsWith("Invalid regex pattern"), text(bad));
        assertEquals("Path not found: nope", text(call(grep, "{\"pattern\":\"x\",\"path\":\"nope\"}")));
    }

    @Test
    void findMatchesNamesAnywhereAndPathsWithDoubleStar() throws Exception {
        assertEquals("Main.java\nsrc/app/App.java", text(call(find, "{\"pattern\":\"**/*.java\"}")));
        assertEquals("Main.java\nsrc/app/App.java", text(call(find, "{\"pattern\":\"*.java\"}")));
        assertEquals("src/app/\nsrc/app/App.java\nsrc/app/Util.kt", text(call(find, "{\"pattern\":\"src/**\"}")));
        assertEquals("docs/README.md", text(call(find, "{\"pattern\":\"*.md\"}")));
        assertEquals("App.java", text(call(find, "{\"pattern\":\"*.java\",\"path\":\"src/app\"}")));
    }

    @Test
    void findListsDirectoriesSkipsIgnoredAndLimits() throws Exception {
        assertEquals("src/app/", text(call(find, "{\"pattern\":\"app\"}")));
        assertEquals("keep.log", text(call(find, "{\"pattern\":\"*.log\"}")));
        assertEquals("sub/secret.txt", text(call(find, "{\"pattern\":\"secret.txt\"}")));
        ToolResult limited = call(find, "{\"pattern\":\"**/*\",\"limit\":2}");
        assertTrue(text(limited).startsWith(".gitignore\nMain.java\n\n[2 results limit reached."), text(limited));
        assertEquals("No files found matching pattern", text(call(find, "{\"pattern\":\"*.rs\"}")));
        assertTrue(call(find, "{\"pattern\":\"*\",\"path\":\"Main.java\"}").isError());
    }

    @Test
    void theRepositoryGitignoreAppliesWhenSearchingASubdirectory() throws Exception {
        Files.createDirectory(cwd.resolve("docs/build"));
        write("docs/build/out.md", "TODO built\n");
        write("docs/trace.log", "TODO trace\n");
        assertEquals("README.md", text(call(find, "{\"pattern\":\"*\",\"path\":\"docs\"}")));
        assertEquals("README.md:2: TODO write docs", text(call(grep, "{\"pattern\":\"TODO\",\"path\":\"docs\"}")));
    }
}
