package dev.agentd.client;

import static dev.agentd.client.FakeDaemon.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Results;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** pi 1.6's session inspection through the typed client: get_entries, get_tree, thinking levels. */
class SessionEntriesClientTest {
    private final FakeDaemon daemon = new FakeDaemon();
    private final List<ObjectNode> received = new CopyOnWriteArrayList<>();
    private RpcClient client;

    private RpcClient start() {
        client = RpcClient.builder().streams(daemon.stdout(), daemon.stdin()).requestTimeout(Duration.ofSeconds(10))
                .start();
        return client;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (client != null) {
            client.close();
        }
        daemon.close();
    }

    @Test
    void entriesAreRequestedWithAnOptionalCursorAndDecoded() {
        String entry = "{\"type\":\"message\",\"id\":\"b2\",\"parentId\":\"a1\",\"timestamp\":\"2026-01-01T00:00:00Z\","
                + "\"message\":{\"role\":\"user\",\"content\":\"hi\",\"timestamp\":1}}";
        daemon.on("get_entries", (command, d) -> {
            received.add(command);
            if ("zz".equals(command.path("since").asText(null))) {
                d.refuse(command, "Entry not found: zz");
            } else if (command.has("since")) {
                d.respond(command, json("{\"entries\":[],\"leafId\":null}"));
            } else {
                d.respond(command, json("{\"entries\":[" + entry + "],\"leafId\":\"b2\"}"));
            }
        });
        start();
        Results.Entries all = client.getEntries();
        assertEquals(List.of(json(entry)), all.entries());
        assertEquals("b2", all.leafId());
        Results.Entries none = client.getEntries("b2");
        assertEquals(List.of(), none.entries());
        assertNull(none.leafId());
        RpcException unknown = assertThrows(RpcException.class, () -> client.getEntries("zz"));
        assertEquals("Entry not found: zz", unknown.serverError());
        assertFalse(received.get(0).has("since"), "no cursor, no field: " + received.get(0));
        assertEquals("b2", received.get(1).path("since").asText());
    }

    @Test
    void theTreeAndTheThinkingLevelsAreDecoded() {
        String node = "{\"entry\":{\"type\":\"message\",\"id\":\"a1\",\"parentId\":null},\"children\":[],"
                + "\"label\":\"start\"}";
        daemon.on("get_tree", (command, d) -> d.respond(command, json("{\"tree\":[" + node + "],\"leafId\":\"a1\"}")));
        daemon.on("get_available_thinking_levels", (command, d) -> d.respond(command,
                json("{\"levels\":[\"off\",\"minimal\",\"low\",\"medium\",\"high\",\"xhigh\"]}")));
        start();
        Results.Tree tree = client.getTree();
        assertEquals(new Results.Tree(List.of(json(node)), "a1"), tree);
        assertEquals("start", tree.tree().get(0).path("label").asText());
        assertEquals(List.of(ThinkingLevel.OFF, ThinkingLevel.MINIMAL, ThinkingLevel.LOW, ThinkingLevel.MEDIUM,
                ThinkingLevel.HIGH, ThinkingLevel.XHIGH), client.getAvailableThinkingLevels());
    }

    @Test
    void theTreeOfALongSessionIsReadWhateverItsDepth() {
        int entries = 3000; // one chain: two levels of nesting per entry, far past the 1000 commands may nest
        StringBuilder tree = new StringBuilder();
        for (int i = 0; i < entries; i++) {
            tree.append("{\"entry\":{\"type\":\"message\",\"id\":\"e").append(i).append("\"},\"children\":[");
        }
        tree.append("]}".repeat(entries));
        daemon.on("get_tree", (command, d) -> d.writeRaw("{\"id\":\"" + command.path("id").asText()
                + "\",\"type\":\"response\",\"command\":\"get_tree\",\"success\":true,\"data\":{\"tree\":["
                + tree + "],\"leafId\":\"e" + (entries - 1) + "\"}}\n"));
        start();
        Results.Tree read = client.getTree();
        com.fasterxml.jackson.databind.JsonNode node = read.tree().get(0);
        int depth = 1;
        while (!node.path("children").isEmpty()) {
            node = node.path("children").get(0);
            depth++;
        }
        assertEquals(entries, depth);
        assertEquals("e" + (entries - 1), node.path("entry").path("id").asText());
    }

    @Test
    void theJsonRpcDialectSendsTheCursorAsParams() {
        WireDialect dialect = Dialect.JSONRPC.wire();
        assertEquals(json("{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"get_entries\",\"params\":{\"since\":\"b2\"}}"),
                dialect.encode("r1", new Command.GetEntries("b2")));
        assertEquals(json("{\"jsonrpc\":\"2.0\",\"id\":\"r2\",\"method\":\"get_tree\",\"params\":{}}"),
                dialect.encode("r2", new Command.GetTree()));
        assertEquals(json("{\"jsonrpc\":\"2.0\",\"id\":\"r3\",\"method\":\"get_available_thinking_levels\","
                + "\"params\":{}}"), dialect.encode("r3", new Command.GetAvailableThinkingLevels()));
    }
}
