package dev.agentd.server.sessionfile;

import dev.agentd.protocol.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A session file's lines: written one record per line, split back into lines when loaded. */
final class JsonlLines {
    private JsonlLines() {}

    /** {@code record} as one JSON line with its line feed. */
    static byte[] of(Object record) {
        try {
            byte[] json = Json.mapper().writeValueAsBytes(record);
            byte[] line = new byte[json.length + 1];
            System.arraycopy(json, 0, line, 0, json.length);
            line[json.length] = '\n';
            return line;
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize a session entry", e);
        }
    }

    /** [offset, length] of every non-blank line, the last one possibly without LF. */
    static List<int[]> split(byte[] bytes) {
        List<int[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                int end = i;
                if (end > start && bytes[end - 1] == '\r') {
                    end--;
                }
                if (end > start && !new String(bytes, start, end - start, StandardCharsets.UTF_8).isBlank()) {
                    lines.add(new int[] {start, end - start});
                }
                start = i + 1;
            }
        }
        return lines;
    }
}
