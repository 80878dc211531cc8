package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adversarial N6: a write or edit through a symbolic link is shown (title, locations, permission
 * note) as the file that really changes, flagged when outside the project; real links in a temp
 * directory, checked against what the OS itself resolves.
 */
class ToolTargetTest {
    @TempDir
    Path tmp;
    private Path project;
    private Path outside;

    @BeforeEach
    void layout() throws IOException {
        Path base = tmp.toRealPath();
        project = Files.createDirectories(base.resolve("proj"));
        outside = Files.createDirectories(base.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.createDirectories(project.resolve("src"));
        Files.createSymbolicLink(project.resolve("link"), outside);                        // dir inside -> outside
        Files.createSymbolicLink(project.resolve("notes.txt"), Path.of("../outside/secret.txt")); // file -> outside
        Files.createSymbolicLink(project.resolve("alias"), Path.of("src"));                // dir inside -> inside
    }

    private static ObjectNode args(String path) {
        return AcpJson.object().put("path", path);
    }

    private String location(String path) {
        return ToolCalls.locations(args(path), project).path(0).path("path").asText();
    }

    @Test
    void aDirectoryLinkToOutsideShowsTheOutsideFileAndIsFlagged() {
        ToolTarget target = ToolTarget.of("link/planted.txt", project).orElseThrow();
        assertEquals(outside.resolve("planted.txt"), target.real(), "a file not there yet: its real parent");
        assertTrue(target.outside() && target.redirected());
        assertEquals(outside.resolve("planted.txt").toString(), location("link/planted.txt"));
        assertEquals("Write " + outside.resolve("planted.txt") + " (outside the project)",
                ToolCalls.title("write", args("link/planted.txt"), project));
        String note = ToolCalls.targetNote("write", args("link/planted.txt"), project).orElseThrow();
        assertTrue(note.startsWith("Outside the project: this write changes " + outside.resolve("planted.txt"))
                && note.contains("link/planted.txt leads there through a symbolic link")
                && note.endsWith("the project is " + project + "."), note);
        assertTrue(ToolCalls.outside(args("link/planted.txt"), project));
    }

    @Test
    void aFileLinkToOutsideShowsItsTarget() throws IOException {
        Path real = project.resolve("notes.txt").toRealPath();
        assertEquals(outside.resolve("secret.txt"), real, "the OS agrees");
        assertEquals(real.toString(), location("notes.txt"));
        assertEquals("Edit " + real + " (outside the project)", ToolCalls.title("edit", args("notes.txt"), project));
        assertEquals(real.toString(), ToolCalls.diff("edit", args("notes.txt").put("oldText", "a").put("newText", "b"),
                project).path("path").asText());
    }

    @Test
    void dotDotAfterALinkIsShownAsTheToolOpensIt() throws IOException {
        // The tool removes ".." lexically before the OS sees the path: link/../x is <project>/x.
        Path opened = new dev.agentd.server.tools.PathResolver(project).resolve("link/../x.txt");
        assertEquals(project.resolve("x.txt"), opened);
        assertEquals(opened.toString(), location("link/../x.txt"));
        assertEquals("Write x.txt", ToolCalls.title("write", args("link/../x.txt"), project));
        assertFalse(ToolCalls.targetNote("write", args("link/../x.txt"), project).isPresent());
        // A link whose own target climbs: resolved against the real directory, as the OS does.
        Files.createSymbolicLink(project.resolve("src/up"), Path.of("../../outside"));
        assertEquals(project.resolve("src/up/secret.txt").toRealPath(),
                ToolTarget.of("src/up/secret.txt", project).orElseThrow().real());
        assertTrue(ToolCalls.title("read", args("src/up/secret.txt"), project).endsWith("(outside the project)"));
    }

    @Test
    void linksInsideTheProjectStayInsideButAreNamed() {
        ToolTarget target = ToolTarget.of("alias/a.txt", project).orElseThrow();
        assertFalse(target.outside());
        assertEquals(project.resolve("src/a.txt").toString(), location("alias/a.txt"));
        assertEquals("Write src/a.txt", ToolCalls.title("write", args("alias/a.txt"), project));
        assertEquals("This write changes " + project.resolve("src/a.txt")
                + " (alias/a.txt leads there through a symbolic link).",
                ToolCalls.targetNote("write", args("alias/a.txt"), project).orElseThrow());
        assertEquals("Write src/new/deep/a.txt", ToolCalls.title("write", args("src/new/deep/a.txt"), project),
                "missing parents: the nearest existing one is resolved");
        assertFalse(ToolCalls.targetNote("write", args("src/new/deep/a.txt"), project).isPresent());
    }

    @Test
    void aCwdReachedThroughALinkKeepsTheEditorsPrefixInside() throws IOException {
        Path cwdLink = Files.createSymbolicLink(tmp.toRealPath().resolve("work"), project);
        assertEquals(cwdLink.resolve("src/a.txt").toString(),
                ToolCalls.locations(args("src/a.txt"), cwdLink).path(0).path("path").asText());
        assertEquals("Write src/a.txt", ToolCalls.title("write", args("src/a.txt"), cwdLink));
        assertEquals(outside.resolve("secret.txt").toString(),
                ToolCalls.locations(args("notes.txt"), cwdLink).path(0).path("path").asText());
    }

    @Test
    void danglingLinksAndLoopsAreBounded() throws IOException {
        // Writing through a dangling link creates its target: that is what is shown.
        Files.createSymbolicLink(project.resolve("dangling"), outside.resolve("new/created.txt"));
        assertEquals(outside.resolve("new/created.txt"), ToolTarget.of("dangling", project).orElseThrow().real());
        Files.createSymbolicLink(project.resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(project.resolve("loop2"), Path.of("loop1"));
        ToolTarget loop = ToolTarget.of("loop1/x", project).orElseThrow();
        assertEquals(project.resolve("loop1/x"), loop.real(), "past the link bound: the path as written");
        assertFalse(loop.outside());
    }

    @Test
    void ordinaryPathsLookAsBefore() {
        Path cwd = Path.of("/nonexistent-agentd-test/w");
        assertEquals("/nonexistent-agentd-test/w/a.txt", ToolCalls.locations(args("a.txt"), cwd).path(0)
                .path("path").asText());
        assertEquals("Edit a.txt", ToolCalls.title("edit", args("a.txt"), cwd));
        assertEquals("Read /etc/hostname-agentd-test (outside the project)",
                ToolCalls.title("read", args("/etc/hostname-agentd-test"), cwd));
        assertEquals("a\u0000b", ToolCalls.locations(args("a\u0000b"), cwd).path(0).path("path").asText(),
                "a path the tool refuses is shown as written, not thrown");
        JsonNode none = ToolCalls.locations(AcpJson.object().put("command", "ls"), cwd);
        assertEquals(0, none.size());
        String longName = "d/".repeat(80) + "file.txt";
        String title = ToolCalls.title("write", args("/elsewhere/" + longName), cwd);
        assertTrue(title.length() <= 120 && title.endsWith("file.txt (outside the project)"), title);
    }
}
