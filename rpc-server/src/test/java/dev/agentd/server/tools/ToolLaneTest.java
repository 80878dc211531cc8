package dev.agentd.server.tools;

import static dev.agentd.server.tools.ToolCalls.call;
import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tools stay in their lane: no special files, no daemon streams, bounded work on huge inputs. */
class ToolLaneTest {
    @TempDir
    Path cwd;

    private PathResolver paths() {
        return new PathResolver(cwd, cwd);
    }

    private Path fifo() throws Exception {
        Path fifo = cwd.resolve("pipe");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mk.waitFor() == 0, "mkfifo available");
        return fifo;
    }

    @Test
    void readWriteEditAndGrepRefuseAFifoWithoutOpeningIt() throws Exception {
        fifo();
        for (ToolResult result : new ToolResult[] {
            call(new ReadTool(paths()), "{\"path\":\"pipe\"}"),
            call(new WriteTool(paths()), "{\"path\":\"pipe\",\"content\":\"x\"}"),
            call(new EditTool(paths()), "{\"path\":\"pipe\",\"oldText\":\"a\",\"newText\":\"b\"}"),
            call(new GrepTool(paths()), "{\"pattern\":\"a\",\"path\":\"pipe\"}")}) {
            assertTrue(result.isError(), text(result));
            assertTrue(text(result).contains("not a regular file"), text(result));
        }
    }

    @Test
    void theDaemonsOwnStreamsAreRefused() throws Exception {
        for (String path : new String[] {"/dev/stdin", "/proc/self/fd/0"}) {
            ToolResult read = call(new ReadTool(paths()), "{\"path\":\"" + path + "\"}");
            assertTrue(read.isError(), path + ": " + text(read));
        }
        for (String path : new String[] {"/dev/stdout", "/proc/self/fd/1", "/dev/stderr"}) {
            ToolResult write = call(new WriteTool(paths()), "{\"path\":\"" + path + "\",\"content\":\"NOT JSON\\n\"}");
            assertTrue(write.isError(), path + ": " + text(write));
            assertTrue(text(write).startsWith("Cannot use " + path), text(write));
        }
        ToolResult environ = call(new ReadTool(paths()), "{\"path\":\"/proc/self/environ\"}");
        assertTrue(environ.isError(), text(environ));
    }

    @Test
    void aHugeLineIsReadCutWithItsRealLength() throws Exception {
        Files.writeString(cwd.resolve("min.js"), "x".repeat(3_000_000) + "\nsecond\n");
        ToolResult result = call(new ReadTool(paths()), "{\"path\":\"min.js\"}");
        assertFalse(result.isError(), text(result));
        assertTrue(text(result).contains("... [line truncated, 3000000 chars]\nsecond"), text(result).substring(0, 100));
    }

    @Test
    void editOfAHugeFileIsATooLargeError() throws Exception {
        Path big = cwd.resolve("big.txt");
        try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
            file.write("hello\n".getBytes());
            file.setLength(EditTool.MAX_BYTES + 1); // sparse: no disk used
        }
        ToolResult result = call(new EditTool(paths()), "{\"path\":\"big.txt\",\"oldText\":\"hello\",\"newText\":\"x\"}");
        assertTrue(result.isError());
        assertTrue(text(result).startsWith("File too large to edit"), text(result));
    }

    @Test
    void aNestedPatternOnAMinifiedLineIsATooComplexError() throws Exception {
        Files.writeString(cwd.resolve("f.txt"), "ab".repeat(50_000) + "\n");
        AtomicReference<Object> outcome = new AtomicReference<>();
        // A small stack like the daemon's run thread gets: the overflow must not depend on the test's.
        Thread thread = new Thread(null, () -> {
            try {
                outcome.set(call(new GrepTool(paths()), "{\"pattern\":\"(ab|cd)+x\",\"path\":\"f.txt\"}"));
            } catch (Throwable e) {
                outcome.set(e);
            }
        }, "grep", 256 * 1024);
        thread.start();
        thread.join();
        assertTrue(outcome.get() instanceof ToolResult, String.valueOf(outcome.get()));
        ToolResult result = (ToolResult) outcome.get();
        assertTrue(result.isError());
        assertTrue(text(result).startsWith("Pattern too complex for line 1 of f.txt"), text(result));
    }

    @Test
    void credentialVariablesAreStrippedUnlessAllowed() {
        ToolEnvironment.alsoStrip(java.util.List.of("MY_LLM_KEY_VAR", "!pass show x"));
        Map<String, String> env = ToolEnvironment.forTools(Map.of("OPENAI_API_KEY", "sk-1", "MY_LLM_KEY_VAR", "k",
                "GITHUB_TOKEN", "t", "AWS_SECRET_ACCESS_KEY", "s", "PATH", "/bin", "HOME", "/root",
                ToolEnvironment.ALLOW_VARIABLE, "GITHUB_TOKEN"));
        assertEquals(Map.of("PATH", "/bin", "HOME", "/root", "GITHUB_TOKEN", "t",
                ToolEnvironment.ALLOW_VARIABLE, "GITHUB_TOKEN"), env);
    }

    @Test
    void bashWritingToItsParentsStdoutLandsInTheToolOutput() throws Exception {
        BashTool bash = new BashTool(cwd, new BashExecutor());
        ToolResult result = call(bash, "{\"command\":\"echo into-parent > /proc/$PPID/fd/1; echo done\"}");
        assertFalse(result.isError(), text(result));
        assertEquals("into-parent\ndone", text(result).strip());
    }

    @Test
    void aHugeTimeoutMeansNoTimeoutInsteadOfAnOverflow() throws Exception {
        BashTool bash = new BashTool(cwd, new BashExecutor());
        for (String timeout : new String[] {"1e12", "1e400"}) {
            ToolResult result = call(bash, "{\"command\":\"echo ok\",\"timeout\":" + timeout + "}");
            assertFalse(result.isError(), timeout + ": " + text(result));
            assertEquals("ok", text(result).strip());
        }
    }
}
