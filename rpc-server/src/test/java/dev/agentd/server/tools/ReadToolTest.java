package dev.agentd.server.tools;

import static dev.agentd.server.tools.ToolCalls.call;
import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentd.protocol.message.ContentBlock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Base64;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadToolTest {
    /** A complete 1x1 PNG. */
    static final byte[] PNG = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");

    @TempDir
    Path root;
    Path cwd;
    ReadTool read;

    @BeforeEach
    void setUp() throws Exception {
        cwd = Files.createDirectories(root.resolve("project"));
        read = new ReadTool(new PathResolver(cwd));
    }

    private static String lines(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));
    }

    @Test
    void readsATextFile() throws Exception {
        Files.writeString(cwd.resolve("a.txt"), "hello\nworld\n");
        ToolResult result = call(read, "{\"path\":\"a.txt\"}");
        assertFalse(result.isError());
        assertEquals("hello\nworld", text(result));
        assertNull(result.details());
        assertEquals("hello\nworld", result.output().structuredContent().textValue(), "pi 1.x: the text as data");
    }

    @Test
    void offsetAndLimitSelectLinesAndSayHowToContinue() throws Exception {
        Files.writeString(cwd.resolve("ten.txt"), lines(1, 10) + "\n");
        ToolResult result = call(read, "{\"path\":\"ten.txt\",\"offset\":3,\"limit\":2}");
        assertEquals("line 3\nline 4\n\n[6 more lines in file. Use offset=5 to continue.]", text(result));
        assertEquals("line 9\nline 10", text(call(read, "{\"path\":\"ten.txt\",\"offset\":9}")));
        ToolResult beyond = call(read, "{\"path\":\"ten.txt\",\"offset\":11}");
        assertTrue(beyond.isError());
        assertEquals("Offset 11 is beyond end of file (10 lines total)", text(beyond));
    }

    @Test
    void longFilesAreCutAt2000LinesWithAContinuationNote() throws Exception {
        Files.writeString(cwd.resolve("big.txt"), lines(1, 2500));
        ToolResult result = call(read, "{\"path\":\"big.txt\"}");
        String text = text(result);
        assertTrue(text.startsWith("line 1\n"));
        assertTrue(text.contains("\nline 2000\n"));
        assertFalse(text.contains("line 2001"));
        assertTrue(text.endsWith("[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]"), text);
        assertEquals("lines", result.details().path("truncation").path("truncatedBy").asText());
        assertTrue(text(call(read, "{\"path\":\"big.txt\",\"offset\":2001}")).endsWith("line 2500"));
    }

    @Test
    void wideFilesAreCutAt50KB() throws Exception {
        String line = "y".repeat(999);
        Files.writeString(cwd.resolve("wide.txt"),
                IntStream.range(0, 100).mapToObj(i -> line).collect(Collectors.joining("\n")));
        ToolResult result = call(read, "{\"path\":\"wide.txt\"}");
        assertTrue(text(result).endsWith("[Showing lines 1-51 of 100 (50.0KB limit). Use offset=52 to continue.]"),
                text(result).substring(text(result).length() - 100));
        assertEquals("bytes", result.details().path("truncation").path("truncatedBy").asText());
    }

    @Test
    void overlongLinesAreCutWithAMarker() throws Exception {
        Files.writeString(cwd.resolve("minified.js"), "z".repeat(5000) + "\nnext");
        String text = text(call(read, "{\"path\":\"minified.js\"}"));
        assertEquals("z".repeat(2000) + "... [line truncated, 5000 chars]\nnext", text);
    }

    @Test
    void crlfAndBomAreNotShown() throws Exception {
        Files.write(cwd.resolve("win.txt"), "\uFEFFone\r\ntwo\r\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("one\ntwo", text(call(read, "{\"path\":\"win.txt\"}")));
    }

    @Test
    void imagesAreDetectedByMagicBytesAndReturnedAsImageBlocks() throws Exception {
        Files.write(cwd.resolve("picture.dat"), PNG);
        ToolResult result = call(read, "{\"path\":\"picture.dat\"}");
        assertFalse(result.isError());
        assertEquals(2, result.content().size());
        assertTrue(text(result).contains("image/png"), text(result));
        ContentBlock.Image image = (ContentBlock.Image) result.content().get(1);
        assertEquals("image/png", image.mimeType());
        assertEquals(Base64.getEncoder().encodeToString(PNG), image.data());

        Files.writeString(cwd.resolve("fake.png"), "not really an image");
        assertEquals("not really an image", text(call(read, "{\"path\":\"fake.png\"}")));
    }

    @Test
    void otherImageFormatsAreRecognised() {
        assertEquals("image/jpeg", FileKind.detect(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 0}).mimeType());
        assertEquals("image/gif", FileKind.detect("GIF89a....".getBytes(StandardCharsets.US_ASCII)).mimeType());
        assertEquals("image/webp", FileKind.detect("RIFF\0\0\0\0WEBPVP8 ".getBytes(StandardCharsets.US_ASCII))
                .mimeType());
        assertEquals(FileKind.Kind.TEXT, FileKind.detect("RIFFxxxxAVI ".getBytes(StandardCharsets.US_ASCII)).kind());
    }

    @Test
    void binaryFilesAreRefused() throws Exception {
        Files.write(cwd.resolve("prog.bin"), new byte[] {0x7F, 'E', 'L', 'F', 0, 1, 2, 3});
        ToolResult result = call(read, "{\"path\":\"prog.bin\"}");
        assertTrue(result.isError());
        assertTrue(text(result).startsWith("Cannot read binary file: prog.bin"), text(result));
    }

    @Test
    void missingFilesAndDirectoriesAreClearErrors() throws Exception {
        ToolResult missing = call(read, "{\"path\":\"nope.txt\"}");
        assertTrue(missing.isError());
        assertEquals("File not found: nope.txt", text(missing));
        Files.createDirectory(cwd.resolve("sub"));
        ToolResult directory = call(read, "{\"path\":\"sub\"}");
        assertTrue(directory.isError());
        assertTrue(text(directory).startsWith("Path is a directory: sub"), text(directory));
    }

    @Test
    void unreadableFilesAreReportedAsPermissionDenied() throws Exception {
        Path secret = Files.writeString(cwd.resolve("secret.txt"), "classified");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
        try {
            // root ignores permission bits: nothing to observe then.
            assumeFalse(Files.isReadable(secret), "running as root: permissions are not enforced");
            ToolResult result = call(read, "{\"path\":\"secret.txt\"}");
            assertTrue(result.isError());
            assertEquals("Permission denied: secret.txt", text(result));
        } finally {
            Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        }
    }

    /**
     * Root bypasses permission bits on ordinary files, but not the kernel's write-only sysfs files:
     * reading one is refused with EACCES even for root, so the case is covered on CI machines too.
     */
    @Test
    void aKernelRefusedReadIsReportedAsPermissionDenied() throws Exception {
        Path writeOnly = writeOnlySysfsFile();
        assumeTrue(writeOnly != null, "no write-only sysfs file on this machine");
        ToolResult result = call(read, "{\"path\":\"" + writeOnly + "\"}");
        assertTrue(result.isError());
        assertEquals("Permission denied: " + writeOnly, text(result));
    }

    private static Path writeOnlySysfsFile() {
        for (String candidate : List.of("/sys/bus/pci/rescan", "/sys/bus/nd/drivers_probe",
                "/sys/class/zram-control/hot_remove")) {
            Path path = Path.of(candidate);
            try (var in = Files.newInputStream(path)) {
                in.read();
            } catch (java.nio.file.AccessDeniedException e) {
                return path;
            } catch (java.io.IOException e) {
                // absent or refused differently: try the next one
            }
        }
        return null;
    }

    @Test
    void filesOutsideTheCwdAreReadAsAsked() throws Exception {
        Path outside = Files.writeString(root.resolve("outside.txt"), "from outside");
        assertEquals("from outside", text(call(read, "{\"path\":\"../outside.txt\"}")));
        assertEquals("from outside", text(call(read, "{\"path\":\"" + outside + "\"}")));
    }

    @Test
    void anEmptyFileSaysSo() throws Exception {
        Files.writeString(cwd.resolve("empty.txt"), "");
        assertEquals("(empty file)", text(call(read, "{\"path\":\"empty.txt\"}")));
    }
}
