package dev.agentd.server.sessionfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** pi 1.6's get_entries and get_tree over a session's entries: cursors, roots, order, labels. */
class EntrySnapshotTest {

    private static SessionEntry.Message message(String id, String parentId, String timestamp, String text) {
        return new SessionEntry.Message(id, parentId, timestamp,
                new AgentMessage.User(List.of(new ContentBlock.Text(text)), 1));
    }

    private static SessionEntry.Unknown unknown(String json) throws Exception {
        return new SessionEntry.Unknown((ObjectNode) Json.mapper().readTree(json));
    }

    private static List<String> ids(List<JsonNode> entries) {
        return entries.stream().map(entry -> entry.path("id").asText()).toList();
    }

    @Test
    void entriesAreWrittenAsInTheFileAndACursorReturnsOnlyLaterOnes() {
        EntrySnapshot snapshot = new EntrySnapshot(List.of(message("a1", null, "2026-01-01T00:00:00Z", "one"),
                message("b2", "a1", "2026-01-01T00:00:01Z", "two"), message("c3", "b2", "2026-01-01T00:00:02Z", "three")),
                "c3");
        List<JsonNode> all = snapshot.after(null);
        assertEquals(List.of("a1", "b2", "c3"), ids(all));
        assertEquals("{\"type\":\"message\",\"id\":\"a1\",\"parentId\":null,\"timestamp\":\"2026-01-01T00:00:00Z\","
                + "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"one\"}],\"timestamp\":1}}",
                all.get(0).toString(), "the entry as a session file line");
        assertEquals(List.of("c3"), ids(snapshot.after("b2")));
        assertEquals(List.of(), snapshot.after("c3"), "nothing after the last entry");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> snapshot.after("zz"));
        assertEquals("Entry not found: zz", unknown.getMessage());
    }

    @Test
    void theTreeHasBranchesOrphansAsRootsAndChildrenOldestFirst() throws Exception {
        EntrySnapshot snapshot = new EntrySnapshot(List.of(
                message("root", null, "2026-01-01T00:00:00Z", "q"),
                message("late", "root", "2026-01-01T00:00:05Z", "retried"),
                message("early", "root", "2026-01-01T00:00:01Z", "failed"),
                message("lost", "gone", "2026-01-01T00:00:06Z", "orphan"),
                unknown("{\"type\":\"label\",\"id\":\"l1\",\"parentId\":\"late\",\"timestamp\":\"2026-01-01T00:00:07Z\","
                        + "\"targetId\":\"early\",\"label\":\"checkpoint\"}")), "l1");
        List<JsonNode> tree = snapshot.tree();
        assertEquals(List.of("root", "lost"), tree.stream().map(node -> node.path("entry").path("id").asText()).toList());
        JsonNode children = tree.get(0).path("children");
        assertEquals(List.of("early", "late"), List.of(children.get(0).path("entry").path("id").asText(),
                children.get(1).path("entry").path("id").asText()), "sorted by timestamp, not append order");
        assertEquals("checkpoint", children.get(0).path("label").asText());
        assertEquals("2026-01-01T00:00:07Z", children.get(0).path("labelTimestamp").asText());
        assertFalse(children.get(1).has("label"), "no label, no field");
        assertEquals("l1", children.get(1).path("children").get(0).path("entry").path("id").asText());
        assertEquals("[]", tree.get(1).path("children").toString());
    }

    @Test
    void anEmptyLabelClearsIt() throws Exception {
        EntrySnapshot snapshot = new EntrySnapshot(List.of(message("a", null, "2026-01-01T00:00:00Z", "q"),
                unknown("{\"type\":\"label\",\"id\":\"l1\",\"parentId\":\"a\",\"timestamp\":\"t\",\"targetId\":\"a\",\"label\":\"x\"}"),
                unknown("{\"type\":\"label\",\"id\":\"l2\",\"parentId\":\"l1\",\"timestamp\":\"t\",\"targetId\":\"a\"}")),
                "l2");
        assertFalse(snapshot.tree().get(0).has("label"));
    }

    @Test
    void aLongChainIsBuiltWithoutRecursionAndAnEmptySessionHasNoLeaf() {
        List<SessionEntry> chain = new ArrayList<>();
        String parent = null;
        for (int i = 0; i < 20_000; i++) {
            chain.add(message("e" + i, parent, "2026-01-01T00:00:00Z", "m"));
            parent = "e" + i;
        }
        JsonNode node = new EntrySnapshot(chain, parent).tree().get(0);
        int depth = 1;
        while (!node.path("children").isEmpty()) {
            node = node.path("children").get(0);
            depth++;
        }
        assertEquals(20_000, depth);
        EntrySnapshot empty = new EntrySnapshot(List.of(), null);
        assertEquals(List.of(), empty.tree());
        assertEquals(List.of(), empty.after(null));
        assertNull(empty.leafId());
    }
}
