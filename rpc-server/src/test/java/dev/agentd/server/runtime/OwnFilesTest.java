package dev.agentd.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnFilesTest {
    @TempDir
    Path dir;

    @Test
    void plainFilesDirectoriesAndMissingPathsAreAllowed() throws IOException {
        Path file = Files.writeString(dir.resolve("a.txt"), "x");
        assertEquals(Optional.empty(), OwnFiles.refusal(file));
        assertEquals(Optional.empty(), OwnFiles.refusal(dir));
        assertEquals(Optional.empty(), OwnFiles.refusal(dir.resolve("missing")));
    }

    @Test
    void devicesAreRefused() {
        assertTrue(OwnFiles.refusal(Path.of("/dev/zero")).orElseThrow().contains("not a regular file"));
        IOException e = assertThrows(IOException.class, () -> OwnFiles.requireOpenable(Path.of("/dev/null"),
                "a settings file"));
        assertTrue(e.getMessage().startsWith("cannot use /dev/null as a settings file: "), e.getMessage());
    }

    @Test
    void aRegularFileThatIsOneOfTheDaemonsStreamsIsRefused() throws IOException {
        // When stdout is redirected to a file, that file is the protocol stream: compared by identity.
        Path out = Files.writeString(dir.resolve("protocol.out"), "");
        Object key = Files.readAttributes(out, BasicFileAttributes.class).fileKey();
        assertTrue(OwnFiles.refusal(out, Set.of(key)).orElseThrow().contains("own standard streams"));
        assertEquals(Optional.empty(), OwnFiles.refusal(out, Set.of()));
    }

    @Test
    void noFollowRefusesLinksDirectoriesAndSpecialFilesItself() throws IOException {
        Path file = Files.writeString(dir.resolve("a.txt"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("link"), file);
        assertEquals(Optional.empty(), OwnFiles.refusalNoFollow(file));
        assertEquals(Optional.empty(), OwnFiles.refusalNoFollow(dir.resolve("missing")));
        assertEquals(Optional.of("it is a symbolic link"), OwnFiles.refusalNoFollow(link));
        assertEquals(Optional.of("it is a directory"), OwnFiles.refusalNoFollow(dir));
        assertTrue(OwnFiles.refusalNoFollow(Path.of("/dev/null")).orElseThrow().contains("not a regular file"));
    }
}
