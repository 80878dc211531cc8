package dev.agentd.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PathResolverTest {
    private final Path cwd = Path.of("/work/project");
    private final PathResolver resolver = new PathResolver(cwd, Path.of("/home/alice"));

    @Test
    void relativePathsResolveAgainstTheCwd() {
        assertEquals(Path.of("/work/project/src/Main.java"), resolver.resolve("src/Main.java"));
        assertEquals(Path.of("/work/project/a.txt"), resolver.resolve("./b/../a.txt"));
        assertEquals(Path.of("/work/project"), resolver.resolve("."));
    }

    @Test
    void absoluteAndOutsidePathsAreUsedAsGiven() {
        assertEquals(Path.of("/etc/hosts"), resolver.resolve("/etc/hosts"));
        assertEquals(Path.of("/work/other/x"), resolver.resolve("../other/x"));
    }

    @Test
    void tildeMeansTheHomeDirectory() {
        assertEquals(Path.of("/home/alice"), resolver.resolve("~"));
        assertEquals(Path.of("/home/alice/notes/todo.md"), resolver.resolve("~/notes/todo.md"));
        // Only a leading "~/" is special: "~bob" is an ordinary relative name.
        assertEquals(Path.of("/work/project/~bob"), resolver.resolve("~bob"));
    }

    @Test
    void aMentionPrefixIsDroppedAndBlankIsAnError() {
        assertEquals(Path.of("/work/project/README.md"), resolver.resolve("@README.md"));
        assertThrows(ToolException.class, () -> resolver.resolve("  "));
    }
}
