package dev.agentd.server.sessionfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.WireTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a session file whole (up to {@link SessionFile#MAX_LOAD_BYTES}): the header, then every
 * readable entry. A garbled line (a crash mid-write) is skipped with a warning; an entry whose
 * parent was on such a line is attached to the entry before it, so one bad line never cuts the
 * earlier history off. An entry type agentd does not know is kept as {@code Unknown}.
 */
final class SessionFileReader {
    private static final Logger LOG = LoggerFactory.getLogger(SessionFileReader.class);
    private static final Map<String, Class<? extends SessionEntry>> ENTRY_TYPES =
            WireTypes.registry(SessionEntry.class);

    /**
     * @param adoptedParents entry id → the entry it now hangs from (its own parent was unreadable)
     * @param bytes the file as read, for the appender to see how it ends
     * @param lastLineReadable whether the last line parsed (else a torn tail the next append cuts)
     */
    record Loaded(SessionHeader header, List<SessionEntry> entries, Map<String, String> adoptedParents,
            byte[] bytes, boolean lastLineReadable) {}

    private SessionFileReader() {}

    static Loaded read(Path file) throws IOException {
        long size = Files.size(file);
        if (size > SessionFile.MAX_LOAD_BYTES) {
            throw new SessionTooLargeException(file, size, SessionFile.MAX_LOAD_BYTES);
        }
        byte[] bytes = Files.readAllBytes(file);
        List<int[]> lines = JsonlLines.split(bytes);
        if (lines.isEmpty()) {
            throw new IOException("not a session file (empty): " + file);
        }
        SessionHeader header;
        try {
            JsonNode first = Json.mapper().readTree(bytes, lines.get(0)[0], lines.get(0)[1]);
            if (!"session".equals(first.path("type").asText())) {
                throw new IOException("missing session header");
            }
            header = Json.mapper().treeToValue(first, SessionHeader.class);
        } catch (IOException e) {
            throw new IOException("not a session file: " + file + " (" + e.getMessage() + ")", e);
        }
        List<SessionEntry> entries = new ArrayList<>();
        Map<String, String> adoptedParents = new HashMap<>();
        Set<String> ids = new HashSet<>();
        String previous = null;
        boolean lastLineReadable = true;
        for (int i = 1; i < lines.size(); i++) {
            int[] line = lines.get(i);
            try {
                SessionEntry entry = decode((ObjectNode) Json.mapper().readTree(bytes, line[0], line[1]));
                if (entry.parentId() != null && !ids.contains(entry.parentId()) && previous != null
                        && entry.id() != null) {
                    // Its parent was on an unreadable line: keep the chain through the entry before it.
                    adoptedParents.put(entry.id(), previous);
                }
                entries.add(entry);
                if (entry.id() != null) {
                    ids.add(entry.id());
                }
                previous = entry.id();
                lastLineReadable = true;
            } catch (IOException | ClassCastException e) {
                lastLineReadable = false;
                LOG.warn("session file {}: line {} is unreadable (a crash mid-write?); ignoring it", file, i + 1);
            }
        }
        return new Loaded(header, entries, adoptedParents, bytes, lastLineReadable);
    }

    private static SessionEntry decode(ObjectNode node) throws IOException {
        Class<? extends SessionEntry> known = ENTRY_TYPES.get(node.path("type").asText());
        return known == null ? new SessionEntry.Unknown(node) : Json.mapper().treeToValue(node, known);
    }
}
