package dev.agentd.server.tools;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What a file's first bytes say it is. Images are recognised by their magic numbers, not their
 * extension; anything else with a NUL byte in its first 8 KB is binary (git's heuristic).
 */
public record FileKind(Kind kind, String mimeType) {
    static final int SNIFF_BYTES = 8192;

    public enum Kind { TEXT, IMAGE, BINARY }

    public static FileKind detect(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(SNIFF_BYTES);
        }
        return detect(head);
    }

    public static FileKind detect(byte[] head) {
        String mime = imageMime(head);
        if (mime != null) {
            return new FileKind(Kind.IMAGE, mime);
        }
        for (byte b : head) {
            if (b == 0) {
                return new FileKind(Kind.BINARY, null);
            }
        }
        return new FileKind(Kind.TEXT, null);
    }

    private static String imageMime(byte[] b) {
        if (startsWith(b, 0, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
            return "image/png";
        }
        if (startsWith(b, 0, 0xFF, 0xD8, 0xFF)) {
            return "image/jpeg";
        }
        if (startsWith(b, 0, 'G', 'I', 'F', '8', '7', 'a') || startsWith(b, 0, 'G', 'I', 'F', '8', '9', 'a')) {
            return "image/gif";
        }
        if (startsWith(b, 0, 'R', 'I', 'F', 'F') && startsWith(b, 8, 'W', 'E', 'B', 'P')) {
            return "image/webp";
        }
        return null;
    }

    private static boolean startsWith(byte[] data, int offset, int... expected) {
        if (data.length < offset + expected.length) {
            return false;
        }
        byte[] want = new byte[expected.length];
        for (int i = 0; i < expected.length; i++) {
            want[i] = (byte) expected[i];
        }
        return Arrays.equals(data, offset, offset + want.length, want, 0, want.length);
    }
}
