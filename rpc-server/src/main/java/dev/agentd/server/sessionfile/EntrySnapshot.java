package dev.agentd.server.sessionfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's entries and leaf taken together under the file's lock, shown as pi 1.6's
 * {@code get_entries} and {@code get_tree} show them: each entry as written to the file.
 *
 * @param entries every entry after the header, in append order (abandoned branches included)
 * @param leafId the current leaf, null for an empty session
 */
public record EntrySnapshot(List<SessionEntry> entries, String leafId) {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    public EntrySnapshot {
        entries = List.copyOf(entries);
    }

    /**
     * The entries after the one with id {@code since} (all of them when null): an id is a cursor
     * that survives restarts, since entries are only ever appended.
     *
     * @throws IllegalArgumentException when no entry has that id (pi's error text)
     */
    public List<JsonNode> after(String since) {
        int from = 0;
        if (since != null) {
            from = indexOf(since) + 1;
            if (from == 0) {
                throw new IllegalArgumentException("Entry not found: " + since);
            }
        }
        List<JsonNode> out = new ArrayList<>(entries.size() - from);
        for (SessionEntry entry : entries.subList(from, entries.size())) {
            out.add(json(entry));
        }
        return out;
    }

    /**
     * The entries as a forest of {@code {entry, children, label?, labelTimestamp?}} nodes. Roots are
     * entries without a parent, pointing at themselves, or whose parent is missing (an orphan: pi
     * shows it as a root too). Children are sorted oldest first (stable). Built without recursion:
     * a long session is a chain thousands deep.
     */
    public List<JsonNode> tree() {
        int n = entries.size();
        Map<String, Integer> byId = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (entries.get(i).id() != null) {
                byId.put(entries.get(i).id(), i); // the last one wins, as for the file's own index
            }
        }
        Map<String, SessionEntry.Unknown> labels = labels();
        List<List<Integer>> children = new ArrayList<>(n);
        List<Integer> roots = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            children.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            SessionEntry entry = entries.get(i);
            Integer parent = entry.parentId() == null || entry.parentId().equals(entry.id()) ? null
                    : byId.get(entry.parentId());
            (parent == null ? roots : children.get(parent)).add(i);
        }
        List<ObjectNode> nodes = new ArrayList<>(n);
        for (SessionEntry entry : entries) {
            ObjectNode node = NODES.objectNode();
            node.set("entry", json(entry));
            node.putArray("children");
            SessionEntry.Unknown label = entry.id() == null ? null : labels.get(entry.id());
            if (label != null) {
                node.put("label", label.json().path("label").asText());
                node.put("labelTimestamp", label.timestamp());
            }
            nodes.add(node);
        }
        Comparator<Integer> oldestFirst = Comparator.comparingLong(i -> epochMillis(entries.get(i).timestamp()));
        for (int i = 0; i < n; i++) {
            children.get(i).sort(oldestFirst);
            ArrayNode list = (ArrayNode) nodes.get(i).get("children");
            children.get(i).forEach(child -> list.add(nodes.get(child)));
        }
        return roots.stream().<JsonNode>map(nodes::get).toList();
    }

    /** Target id → the latest pi {@code label} entry naming it; an empty label clears it. */
    private Map<String, SessionEntry.Unknown> labels() {
        Map<String, SessionEntry.Unknown> labels = new HashMap<>();
        for (SessionEntry entry : entries) {
            if (entry instanceof SessionEntry.Unknown unknown && "label".equals(unknown.type())) {
                String target = unknown.json().path("targetId").asText(null);
                JsonNode label = unknown.json().get("label");
                if (target == null) {
                    continue;
                }
                if (label != null && label.isTextual() && !label.textValue().isEmpty()) {
                    labels.put(target, unknown);
                } else {
                    labels.remove(target);
                }
            }
        }
        return labels;
    }

    private int indexOf(String id) {
        for (int i = 0; i < entries.size(); i++) {
            if (id.equals(entries.get(i).id())) {
                return i;
            }
        }
        return -1;
    }

    private static JsonNode json(SessionEntry entry) {
        return entry instanceof SessionEntry.Unknown unknown ? unknown.json().deepCopy()
                : Json.mapper().valueToTree(entry);
    }

    /** An unreadable timestamp sorts last, so the order stays total. */
    private static long epochMillis(String timestamp) {
        try {
            return timestamp == null ? Long.MAX_VALUE : Instant.parse(timestamp).toEpochMilli();
        } catch (DateTimeParseException e) {
            return Long.MAX_VALUE;
        }
    }
}
